import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentOnTable } from '../../../e2e/fixtures/covered-document';
import { sample } from '../../../e2e/fixtures/samples';
import { createVerification, sendInput, startService, type RunningService } from '../testing/harness';

// documentPhoto.occludedDocument from the pixels, through the real API: the project's passport
// sample photographed on a table with a thumb reaching in from the photo's edge over the page
// (images made here from the sample, no marker in them), and the same photo without the thumb.

let svc: RunningService;
beforeAll(async () => {
  svc = await startService({ UPLOAD_WAIT_SECONDS: '600' });
});
afterAll(() => svc.close());

type Result = { result: boolean; error?: { code: string; message?: string } };
const codeOf = (body: unknown) => {
  const [first] = body as Result[];
  return first?.result ? null : (first?.error?.code ?? '?');
};

const document = (type: string, country: string, filename: string) => ({
  inputType: 'document-photo',
  group: 0,
  data: { type, country, page: 'front', filename },
});

async function send(flow: string, type: string, country: string, name: string, bytes: Buffer) {
  const v = await createVerification(svc, flow);
  const sent = await sendInput(
    svc,
    v.identity,
    [document(type, country, name)],
    [{ field: 'document', name, bytes }],
  );
  return codeOf(sent.body);
}

describe('documentPhoto.occludedDocument', () => {
  it('refuses the passport sample with a thumb over it, named before what the thumb hides', async () => {
    const covered = await documentOnTable(sample('ar-passport.jpg').path, { finger: true });
    expect(await send('global-passport', 'passport', 'AR', 'covered.jpg', covered)).toBe(
      'documentPhoto.occludedDocument',
    );
  });

  it('refuses it for a darker skin too', async () => {
    const covered = await documentOnTable(sample('ar-passport.jpg').path, {
      finger: true,
      skin: [141, 96, 70],
    });
    expect(await send('global-passport', 'passport', 'AR', 'covered.jpg', covered)).toBe(
      'documentPhoto.occludedDocument',
    );
  });

  it('keeps the same photo without the thumb, and the untouched sample', async () => {
    const bare = await documentOnTable(sample('ar-passport.jpg').path, { finger: false });
    expect(await send('global-passport', 'passport', 'AR', 'bare.jpg', bare)).not.toBe(
      'documentPhoto.occludedDocument',
    );
    const untouched = readFileSync(sample('ar-passport.jpg').path);
    expect(await send('global-passport', 'passport', 'AR', 'passport.jpg', untouched)).toBeNull();
  });
});
