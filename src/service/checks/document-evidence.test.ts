import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { identityFront, zoneShaped } from '@/checks/document/document-outline';
import { makeNotDocuments, type NotDocument } from '../../../scripts/make-not-documents';
import { checkDocumentPhoto, type DocumentPhotoContext } from './inputs/document-photo';
import type { CheckOutcome, StoredFile } from '@/checks/inputs/node/types';

// Pictures that are no identity document (scripts/make-not-documents.ts: screenshots of text,
// a chat, a spreadsheet, a room, a landscape, an A4 letter on a table and filling the frame) sent
// as a document's front: each is refused as no document, by the outline or, where it has one and
// print, by the features an identity document's front shows (`identityFront`).

const dniFront: DocumentPhotoContext = {
  type: 'national-id',
  country: 'AR',
  page: 'front',
  requires: ['pdf417'],
  faceRequired: true,
};
const passportPage: DocumentPhotoContext = {
  type: 'passport',
  country: 'GB',
  page: 'front',
  requires: ['mrz'],
  faceRequired: true,
};

let pictures: (NotDocument & { stored: StoredFile })[];

/**
 * A picture checked in a context once per file: the check is deterministic, and the test of the
 * letter's outline looks at the outcome the passport-page test had (the OCR of a page of print
 * is the costly part of it).
 */
const outcomes = new Map<string, Promise<CheckOutcome>>();
function check(picture: NotDocument & { stored: StoredFile }, ctx: DocumentPhotoContext) {
  const key = `${ctx.type}/${picture.name}`;
  let outcome = outcomes.get(key);
  if (!outcome) {
    outcome = checkDocumentPhoto(picture.stored, ctx);
    outcomes.set(key, outcome);
  }
  return outcome;
}
beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'not-documents-'));
  pictures = await Promise.all(
    (await makeNotDocuments()).map(async (picture) => {
      const file = path.join(dir, picture.name);
      await writeFile(file, picture.bytes);
      const stored: StoredFile = {
        path: file,
        filename: picture.name,
        size: picture.bytes.length,
        format: picture.format,
      };
      return { ...picture, stored };
    }),
  );
}, 60_000);

describe('what is not a document', () => {
  it('the generated pictures are eleven, of a size and colour the service looks at', () => {
    expect(pictures.map((p) => p.name)).toHaveLength(11);
  });

  for (const [claim, ctx] of [
    ['a DNI front', dniFront],
    ['a passport page', passportPage],
  ] as const) {
    it(`screenshots, a chat, a spreadsheet, a room, a landscape and letters sent as ${claim}: no document`, async () => {
      const codes: Record<string, string | null | undefined> = {};
      for (const picture of pictures) codes[picture.name] = (await check(picture, ctx)).code;
      expect(codes).toEqual(Object.fromEntries(pictures.map((p) => [p.name, 'documentPhoto.noDocument'])));
    }, 180_000);
  }

  it('a letter on a table has the outline of a passport page: its features decide', async () => {
    const letter = pictures.find((p) => p.name === 'a4-on-table-upright.jpg')!;
    const outcome = await check(letter, passportPage);
    expect(outcome.facts.documentOutline).toBe('framed');
    expect(outcome.facts.documentAspect).toBeGreaterThan(1.35);
    expect(outcome.facts.documentAspect).toBeLessThan(1.48);
    expect(outcome.code).toBe('documentPhoto.noDocument');
  }, 60_000);

  it('the rule: any of portrait, zone or barcode makes a front; none of them, none; not looked, unknown', () => {
    expect(identityFront({ portrait: true, zone: false, barcode: false })).toBe('yes');
    expect(identityFront({ portrait: false, zone: true, barcode: false })).toBe('yes');
    expect(identityFront({ portrait: false, zone: false, barcode: true })).toBe('yes');
    expect(identityFront({ portrait: null, zone: true, barcode: null })).toBe('yes');
    expect(identityFront({ portrait: false, zone: false, barcode: false })).toBe('no');
    expect(identityFront({ portrait: null, zone: false, barcode: false })).toBe('unknown');
  });

  it('a zone is two or three lines of one ICAO format; prose the OCR forced into its alphabet is not', () => {
    const td3 = ['P<GBRSPECIMEN<<ALEX'.padEnd(44, '<'), '1234567897GBR8811307<3209011'.padEnd(44, '<')];
    expect(zoneShaped(td3)).toBe(true);
    expect(zoneShaped(['I<ARG'.padEnd(30, '<'), '8'.repeat(30), 'A<<B'.padEnd(30, '<')])).toBe(true);
    expect(zoneShaped(['ILM8<KLLHAPOLSWLFH2SIH2SSUVIWID', 'FOSEKONMOINGDYPFOJ<EDPO<YAYGJN<CTY8LF80S'])).toBe(
      false,
    );
    expect(zoneShaped(['A'.repeat(36)])).toBe(false);
  });
});
