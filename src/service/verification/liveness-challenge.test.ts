import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationDataSchema } from '@/shared/contract/verification';
import { livenessChallengeSchema } from '@/shared/contract/liveness-challenge';
import { challengeCameraFrames } from '../../../e2e/fixtures/camera/make-challenge-camera';
import { mxCustomFieldsInputs } from '../../../e2e/fixtures/send-input-form';
import { sample } from '../../../e2e/fixtures/samples';
import {
  createVerification,
  sendInput,
  startService,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

/** The native FFmpeg of the npm registry (a devDependency) encodes the test clips: no system one. */
const ffmpeg = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/package.json')),
  'ffmpeg',
);
const video = { inputType: 'selfie-video', data: { filename: 'video.webm' } };
const videoPart = (bytes: Buffer) => ({ field: 'video', name: 'video.webm', bytes });

/** A WebM of JPEG frames at `fps` (as a phone's recording would be: VP8). */
function webm(frames: Buffer[], fps: number): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'challenge-clip-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.mjpeg'), Buffer.concat(frames));
    const made = spawnSync(ffmpeg, [
      ...['-loglevel', 'error', '-f', 'mjpeg', '-framerate', String(fps), '-i', path.join(dir, 'in.mjpeg')],
      ...['-c:v', 'libvpx', '-b:v', '800k', path.join(dir, 'out.webm')],
    ]);
    if (made.status !== 0) throw new Error(String(made.stderr));
    return fs.readFileSync(path.join(dir, 'out.webm'));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('the active liveness challenge', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ LIVENESS_CHALLENGE: 'on', UPLOAD_WAIT_SECONDS: '600' });
  });
  afterAll(() => svc.close());

  it('is chosen by the service for a video flow only', async () => {
    const v = await createVerification(svc, 'mx-ine-full');
    const { actions } = livenessChallengeSchema.parse(v.livenessChallenge);
    expect(actions).toContain('blink');
    expect((await createVerification(svc, 'global-passport')).livenessChallenge).toBeUndefined();
  });

  it('passes a clip that turns both ways and blinks, twice over', { timeout: 180_000 }, async () => {
    const loop = await challengeCameraFrames();
    const v = await createVerification(svc, 'mx-ine-full');
    const sent = await sendInput(svc, v.identity, [video], [videoPart(webm([...loop, ...loop], 30))]);
    expect(sent.body).toEqual([expect.objectContaining({ result: true })]);
  });

  it('refuses a face that only looks at the camera', { timeout: 180_000 }, async () => {
    const [still] = await challengeCameraFrames();
    const v = await createVerification(svc, 'mx-ine-full');
    const sent = await sendInput(svc, v.identity, [video], [videoPart(webm(Array(20).fill(still), 5))]);
    expect(sent.body).toEqual([
      expect.objectContaining({
        result: false,
        error: expect.objectContaining({
          code: 'selfiePhoto.validationError',
          message: expect.stringMatching(
            /^liveness challenge: the asked turn(Left|Right) was not seen|blink/,
          ),
        }),
      }),
    ]);
  });

  it(
    'never verifies a video whose challenge could not be looked for, and says why',
    { timeout: 120_000 },
    async () => {
      const saved = process.env.FFMPEG_PATH;
      process.env.FFMPEG_PATH = path.join(os.tmpdir(), 'no-such-ffmpeg');
      try {
        const v = await createVerification(svc, 'mx-ine-full');
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
        const sent = await sendInput(
          svc,
          v.identity,
          [
            ine('front', 'mx-ine-front.jpg'),
            ine('back', 'mx-ine-back.jpg'),
            { inputType: 'selfie-video', data: { filename: 'liveness.mp4' } },
            {
              inputType: 'custom-document-photo',
              group: 1,
              data: {
                type: 'custom-proof-of-address',
                page: 'front',
                filename: 'custom-proof-of-address.pdf',
              },
            },
            ...mxCustomFieldsInputs,
          ],
          [
            part('document', 'mx-ine-front.jpg'),
            part('document', 'mx-ine-back.jpg'),
            part('video', 'liveness.mp4'),
            part('custom-document', 'custom-proof-of-address.pdf'),
          ],
        );
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
