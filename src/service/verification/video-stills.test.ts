import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verificationDataSchema } from '@/shared/contract/verification';
import { FACE_MATCH_MIN_SIMILARITY } from '@/checks/face/face-rules';
import { mxCustomFieldsInputs } from '../../../e2e/fixtures/send-input-form';
import { sample } from '../../../e2e/fixtures/samples';
import {
  createVerification,
  sendInput,
  startService,
  waitForStatus,
  type RunningService,
} from '../testing/harness';

const part = (field: string, file: string) => ({
  field,
  name: file,
  bytes: fs.readFileSync(sample(file).path),
});

describe('the liveness step, in the hosted API shape', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
  });
  afterAll(() => svc.close());

  // FFmpeg from npm (wasm): no system FFmpeg is needed.
  it('gives the video, a selfie still of it and a sprite of its frames', async () => {
    const v = await createVerification(svc, 'mx-ine-full');
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
          data: { type: 'custom-proof-of-address', page: 'front', filename: 'custom-proof-of-address.pdf' },
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
    expect(sent.status).toBe(201);
    expect((sent.body as { result: boolean }[]).map((r) => r.result)).toEqual([true, true, true, true, true]);
    const data = verificationDataSchema.parse(
      await waitForStatus(svc, v.id, ['verified', 'reviewNeeded', 'rejected'], 60_000),
    );
    // The face match compares the video's kept frame (its descriptor taken at processing) with the
    // card's portrait: the same drawn face.
    const match = data.documents[0].steps.find((s) => s.id === 'facematch');
    expect(match?.error ?? null).toBeNull();
    expect(Number((match?.data as { score: number }).score)).toBeGreaterThanOrEqual(
      FACE_MATCH_MIN_SIMILARITY * 100,
    );
    const liveness = data.steps.find((s) => s.id === 'liveness')!;
    const urls = liveness.data as { videoUrl: string; selfieUrl: string; spriteUrl: string };
    const video = await fetch(urls.videoUrl, { headers: svc.auth });
    expect(video.headers.get('content-type')).toBe('video/mp4');
    for (const url of [urls.selfieUrl, urls.spriteUrl]) {
      const still = await fetch(url, { headers: svc.auth });
      expect(still.status).toBe(200);
      expect(still.headers.get('content-type')).toBe('image/jpeg');
      const bytes = Buffer.from(await still.arrayBuffer());
      expect(bytes.subarray(0, 3).toString('hex')).toBe('ffd8ff');
    }
  });
});
