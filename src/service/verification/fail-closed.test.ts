import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationDataSchema, type VerificationData } from '@/shared/contract/verification';
import { mxCustomFields, mxIneVideoInputs } from '../../../e2e/fixtures/send-input-form';
import { sample } from '../../../e2e/fixtures/samples';
import {
  createVerification,
  sendInput,
  startService,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

// A check that cannot run never counts as passed: the liveness video of a flow that is otherwise
// verified, with FFmpeg as the service finds it (wasm from npm), then with an FFMPEG_PATH that is
// missing, then with one that dies (killed by a signal, as a worker would be).
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-fail-closed-'));
const dyingFfmpeg = path.join(dir, 'ffmpeg-that-dies');
fs.writeFileSync(dyingFfmpeg, '#!/bin/sh\nkill -9 $$\n', { mode: 0o755 });

const part = (field: string, file: string) => ({
  field,
  name: file,
  bytes: fs.readFileSync(sample(file).path),
});
/** The CURP and RFC the sample card shows (a mismatch with the card would reject the verification). */
const matchingFields = mxCustomFields('MUEM900215MDFSJR08', 'MUEM900215K78');

async function verifyWithVideo(svc: RunningService): Promise<VerificationData> {
  const v = await createVerification(svc, 'mx-ine-full');
  const sent = await sendInput(
    svc,
    v.identity,
    mxIneVideoInputs('liveness.mp4', matchingFields),
    ['mx-ine-front.jpg', 'mx-ine-back.jpg', 'liveness.mp4', 'custom-proof-of-address.pdf'].map((file, i) =>
      part(['document', 'document', 'video', 'custom-document'][i], file),
    ),
  );
  // The person is not asked to retake a video for the service's own failure.
  expect((sent.body as { result: boolean }[]).map((r) => r.result)).toEqual([true, true, true, true, true]);
  return verificationDataSchema.parse(
    await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], 90_000),
  );
}

async function withFfmpegPath<T>(value: string, run: () => Promise<T>) {
  const saved = process.env.FFMPEG_PATH;
  process.env.FFMPEG_PATH = value;
  try {
    return await run();
  } finally {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
  }
}

describe('a check that cannot run never counts as passed', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
  });
  afterAll(async () => {
    await svc.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'verifies the flow when the frames are read (FFmpeg from npm, no system FFmpeg)',
    { timeout: 120_000 },
    async () => {
      const data = await verifyWithVideo(svc);
      expect(data.identity.status).toBe('verified');
      expect(data.steps.find((s) => s.id === 'liveness')?.error).toBeNull();
      expect(data.documents[0].steps.find((s) => s.id === 'facematch')?.error).toBeNull();
    },
  );

  it.each([
    ['an FFMPEG_PATH that is missing', path.join(dir, 'no-such-ffmpeg'), /no FFmpeg at FFMPEG_PATH/],
    ['an FFmpeg that dies (SIGKILL)', dyingFfmpeg, /FFmpeg failed/],
  ])(
    'sends it to review, never verified, with %s, and says why',
    { timeout: 120_000 },
    async (_label, ffmpeg, why) => {
      const data = await withFfmpegPath(ffmpeg, () => verifyWithVideo(svc));
      expect(data.identity.status).toBe('reviewNeeded');
      expect(data.hasProblem).toBe(true);
      expect(data.steps.find((s) => s.id === 'liveness')?.error).toMatchObject({
        code: 'liveness.notChecked',
        message: expect.stringMatching(why),
      });
      expect(data.documents[0].steps.find((s) => s.id === 'facematch')?.error).toMatchObject({
        code: 'facematch.notChecked',
      });
    },
  );
});
