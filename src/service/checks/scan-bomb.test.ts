import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scanBomb } from '../../../e2e/fixtures/scan-bomb';
import { samplePath } from '../../../e2e/fixtures/samples';
import { createVerification, sendInput, startService, type RunningService } from '../testing/harness';

// Every image header the checks read, counted as it is read: the ordinary passport is sent once
// both bombs are in the checks, whatever the machine's speed.
const asked = vi.hoisted(() => ({ headers: 0 }));
vi.mock('../../checks/image/node/image', async (importOriginal) => {
  const original = await importOriginal<typeof import('@/checks/image/node/image')>();
  return {
    ...original,
    readImageHeader: (...args: Parameters<typeof original.readImageHeader>) => {
      asked.headers++;
      return original.readImageHeader(...args);
    },
  };
});

let svc: RunningService;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc?.close());

const passportInput = (filename: string) => [
  {
    inputType: 'document-photo',
    group: 0,
    data: { type: 'passport', country: 'GB', page: 'front', filename },
  },
];
type Answer = { result: boolean; error?: { code: string; message: string } }[];

// Issue 34 item 2: two progressive JPEGs of 50,000 scans each (63 MiB of coefficients, under the
// bound on what a decode buffers) held the image decoders for minutes, and a valid passport of
// another verification sent after them was refused when its check timed out.
describe('a scan bomb', () => {
  it('is refused from its header, and a valid passport sent after two of them is accepted', async () => {
    const bomb = scanBomb(50_000);
    const [a1, a2, b] = await Promise.all(
      ['A1', 'A2', 'B'].map(() => createVerification(svc, 'global-passport').then((v) => v.identity)),
    );
    const attacks = [a1, a2].map((identity) =>
      sendInput(svc, identity, passportInput('passport.jpg'), [
        { field: 'document', name: 'passport.jpg', bytes: bomb },
      ]),
    );
    let settled = false;
    void Promise.all(attacks).then(() => (settled = true));
    while (asked.headers < 2 && !settled) await new Promise((resolve) => setTimeout(resolve, 20));
    // Read through the replaced module (a file of its own process: vite.config.ts).
    expect(asked.headers).toBeGreaterThanOrEqual(2);
    const answerB = await sendInput(svc, b, passportInput('passport.jpg'), [
      { field: 'document', name: 'passport.jpg', bytes: readFileSync(samplePath('gb-passport.jpg')) },
    ]);
    expect(answerB.status).toBe(201);
    // The error first, so that a refusal says which (a timeout, a code) rather than only `false`.
    expect((answerB.body as Answer)[0].error).toBeUndefined();
    expect((answerB.body as Answer)[0]).toMatchObject({ result: true });
    for (const answer of await Promise.all(attacks)) {
      expect(answer.status).toBe(201);
      expect((answer.body as Answer)[0].error).toMatchObject({
        code: 'documentPhoto.unexpectedData',
        message: expect.stringMatching(/more than 100 scans/) as unknown,
      });
    }
  }, 150_000);
});
