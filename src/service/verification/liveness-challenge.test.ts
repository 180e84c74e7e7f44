import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challengeLengthMs } from '@/checks/video/liveness-challenge';
import { verificationDataSchema } from '@/shared/contract/verification';
import { livenessChallengeSchema, type LivenessChallenge } from '@/shared/contract/liveness-challenge';
import {
  CAMERA_FPS,
  followingPoses,
  framesOf,
  replayLoop,
  type Poses,
} from '../../../e2e/fixtures/camera/make-challenge-camera';
import { encodeWebm } from '../../../e2e/fixtures/camera/webm-clip';
import { mxCustomFieldsInputs } from '../../../e2e/fixtures/send-input-form';
import { sample } from '../../../e2e/fixtures/samples';
import {
  createVerification,
  sendInput,
  startService,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

const video = { inputType: 'selfie-video', data: { filename: 'video.webm' } };
const videoPart = (bytes: Buffer) => ({ field: 'video', name: 'video.webm', bytes });

let dir = '';
/** A WebM (VP8, as a phone's recording) of the drawn face's poses at 30 frames a second. */
async function webm(poses: Poses): Promise<Buffer> {
  const out = await encodeWebm(await framesOf(poses), CAMERA_FPS, path.join(dir, `${Math.random()}.webm`));
  return fs.readFileSync(out);
}

/** The inputs of an mx-ine-full flow (with a sample's video, or without one), in flow order. */
function flowInputs(videoSample?: string) {
  const part = (field: string, file: string) => ({
    field,
    name: file,
    bytes: fs.readFileSync(sample(file).path),
  });
  const ine = (page: 'front' | 'back', filename: string) => ({
    inputType: 'document-photo',
    group: 0,
    data: { type: 'national-id', country: 'MX', page, filename },
  });
  return {
    descriptors: [
      ine('front', 'mx-ine-front.jpg'),
      ine('back', 'mx-ine-back.jpg'),
      ...(videoSample ? [{ inputType: 'selfie-video', data: { filename: videoSample } }] : []),
      {
        inputType: 'custom-document-photo',
        group: 1,
        data: { type: 'custom-proof-of-address', page: 'front', filename: 'custom-proof-of-address.pdf' },
      },
      ...mxCustomFieldsInputs,
    ],
    parts: [
      part('document', 'mx-ine-front.jpg'),
      part('document', 'mx-ine-back.jpg'),
      ...(videoSample ? [part('video', videoSample)] : []),
      part('custom-document', 'custom-proof-of-address.pdf'),
    ],
  };
}

type Answer = {
  result: boolean;
  error?: { code: string; message: string };
  livenessChallenge?: LivenessChallenge;
}[];

describe('the active liveness challenge', () => {
  let svc: RunningService;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'challenge-clip-'));
    svc = await startService({ LIVENESS_CHALLENGE: 'on', UPLOAD_WAIT_SECONDS: '600' });
  });
  afterAll(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is chosen by the service for a video flow only: its first of three attempts', async () => {
    const v = await createVerification(svc, 'mx-ine-full');
    const challenge = livenessChallengeSchema.parse(v.livenessChallenge);
    expect(challenge).toMatchObject({ attempt: 1, attempts: 3 });
    expect(challenge.actions.length).toBeGreaterThanOrEqual(2);
    expect(challenge.cuesMs).toHaveLength(challenge.actions.length);
    expect((await createVerification(svc, 'global-passport')).livenessChallenge).toBeUndefined();
  });

  it("passes a clip that follows its own challenge's cues", { timeout: 240_000 }, async () => {
    // A challenge of two movements keeps the clip short (each frame read costs a face detection,
    // and the check has 60 s on a loaded machine): creations are cheap, a quarter ask for two.
    let v = await createVerification(svc, 'mx-ine-full');
    while (livenessChallengeSchema.parse(v.livenessChallenge).actions.length > 2)
      v = await createVerification(svc, 'mx-ine-full');
    const challenge = livenessChallengeSchema.parse(v.livenessChallenge);
    const clip = await webm(followingPoses(challenge, challengeLengthMs(challenge)));
    const sent = await sendInput(svc, v.identity, [video], [videoPart(clip)]);
    expect(sent.body).toEqual([expect.objectContaining({ result: true })]);
  });

  it(
    "refuses issue 34's replayed two-loop clip, in plain words, with a fresh challenge for the next attempt",
    { timeout: 240_000 },
    async () => {
      const replay = await webm([...replayLoop, ...replayLoop]);
      const v = await createVerification(svc, 'mx-ine-full');
      const first = livenessChallengeSchema.parse(v.livenessChallenge);
      const sent = await sendInput(svc, v.identity, [video], [videoPart(replay)]);
      const [answer] = sent.body as Answer;
      expect(answer).toMatchObject({
        result: false,
        error: { code: expect.stringMatching(/^(selfiePhoto\.validationError|voiceVideo\.noFace)$/) },
      });
      // No figure, no pass mark, no measurement's name: nothing to tune a replay on.
      expect(answer.error?.message).not.toMatch(/\d|yaw|openness|needs|threshold/i);
      // The next attempt's challenge is a new one (bound to this verification, the second of three).
      const next = livenessChallengeSchema.parse(answer.livenessChallenge);
      expect(next).toMatchObject({ attempt: 2, attempts: 3 });
      expect(next).not.toEqual(first);
    },
  );

  it(
    'gives three attempts, then keeps the video for a review that says the challenge failed',
    { timeout: 300_000 },
    async () => {
      // A face that only looks at the camera, 3 s: refused at once (the first cue's window passes empty).
      const still = await webm([[{}, 90]]);
      const v = await createVerification(svc, 'mx-ine-full');
      const attempts: Answer = [];
      for (let i = 0; i < 3; i++) {
        const sent = await sendInput(svc, v.identity, [video], [videoPart(still)]);
        attempts.push(...(sent.body as Answer));
      }
      expect(attempts.map((a) => a.result)).toEqual([false, false, true]);
      expect(attempts.map((a) => a.livenessChallenge?.attempt)).toEqual([2, 3, undefined]);
      expect(attempts[0].error?.message).toBe(
        'The movements asked were not seen at the moments they were asked. Record again, following the screen.',
      );
      // A fourth video changes nothing: no attempt is left, it is kept for the review too.
      const fourth = await sendInput(svc, v.identity, [video], [videoPart(still)]);
      expect(fourth.body).toEqual([expect.objectContaining({ result: true })]);
      const rest = flowInputs();
      const sent = await sendInput(svc, v.identity, rest.descriptors, rest.parts);
      expect((sent.body as Answer).every((a) => a.result)).toBe(true);
      const data = verificationDataSchema.parse(
        await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], 90_000),
      );
      // Never verified: the liveness step's error takes it to a review (the flow's sample fields may
      // even reject it: their CURP is not the INE's person).
      expect(data.identity.status).not.toBe('verified');
      expect(data.steps.find((s) => s.id === 'liveness')?.error).toMatchObject({
        code: 'liveness.challengeFailed',
        message: expect.stringContaining('no attempt of the challenge was left'),
      });
    },
  );

  it(
    'never verifies a video whose challenge could not be looked for, and says why',
    { timeout: 120_000 },
    async () => {
      const saved = process.env.FFMPEG_PATH;
      process.env.FFMPEG_PATH = path.join(os.tmpdir(), 'no-such-ffmpeg');
      try {
        const v = await createVerification(svc, 'mx-ine-full');
        const inputs = flowInputs('liveness.mp4');
        const sent = await sendInput(svc, v.identity, inputs.descriptors, inputs.parts);
        expect((sent.body as { result: boolean }[]).map((r) => r.result)).toEqual([
          true,
          true,
          true,
          true,
          true,
        ]);
        const data = verificationDataSchema.parse(
          await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], 60_000),
        );
        // Never verified (other steps without the frames may even reject it).
        expect(data.identity.status).not.toBe('verified');
        expect(data.steps.find((s) => s.id === 'liveness')?.error).toMatchObject({
          code: 'liveness.notChecked',
          message: expect.stringContaining('no FFmpeg at FFMPEG_PATH'),
        });
        // No face match was computed, and it says so instead of leaving the step out.
        expect(data.documents[0].steps.find((s) => s.id === 'facematch')?.error).toMatchObject({
          code: 'facematch.notChecked',
        });
      } finally {
        if (saved === undefined) delete process.env.FFMPEG_PATH;
        else process.env.FFMPEG_PATH = saved;
      }
    },
  );
});
