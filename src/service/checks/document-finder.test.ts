import { statSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { judgeOutline, shapeMismatch, textChains } from '@/checks/document/document-outline';
import { sample } from '../../../e2e/fixtures/samples';
import { checkDocumentPhoto, type DocumentPhotoContext } from './inputs/document-photo';
import { findDocument } from '@/checks/document/node/document-finder';

const front: DocumentPhotoContext = {
  type: 'national-id',
  country: 'AR',
  page: 'front',
  requires: [],
  faceRequired: true,
};
const back: DocumentPhotoContext = { ...front, page: 'back' };
const stored = (file: string) => {
  const { path } = sample(file);
  return { path, filename: file, size: statSync(path).size, format: 'jpeg' as const };
};

async function rgba(file: string, extend = 0) {
  const { data, info } = await sharp(sample(file).path)
    .resize({ width: 1000 })
    .extend({ top: extend, bottom: extend, left: extend, right: extend, background: '#555' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

describe('the document finder', () => {
  it('finds a card on a background and straightens it to an ID-1 shape', async () => {
    const found = await findDocument(await rgba('ar-national-id-front.jpg', 120));
    expect(found.verdict).toBe('framed');
    expect(found.aspect).toBeGreaterThan(1.5);
    expect(found.aspect).toBeLessThan(1.68);
    expect(found.mrzCrop?.width).toBe(1000);
  });

  it('finds no document in a photo of a face filling the frame', async () => {
    expect((await findDocument(await rgba('selfie.jpg'))).verdict).toBe('none');
  });

  it('a face uploaded as a DNI front is no document for the service', async () => {
    const outcome = await checkDocumentPhoto(stored('selfie.jpg'), front);
    expect(outcome.code).toBe('documentPhoto.noDocument');
    expect(outcome.facts.documentOutline).toBe('none');
  });

  it('the front of a two-sided card sent as its back shows its portrait: the other side', async () => {
    const outcome = await checkDocumentPhoto(stored('ar-national-id-front.jpg'), back);
    expect(outcome.code).toBe('documentPhoto.sideMismatch');
  });

  it("a back merely alike its front is no 'same side' once it shows no portrait; the same picture is", async () => {
    const { facts } = await checkDocumentPhoto(stored('ar-national-id-back.jpg'), back);
    const hash = facts.phash!;
    // A hash `bits` away from the back's own (whole hex digits turned over, then two bits).
    const away = (bits: number) =>
      [...hash]
        .map((digit, i) => {
          const flip =
            i < Math.floor(bits / 4) ? 0xf : i === Math.floor(bits / 4) ? (1 << (bits % 4)) - 1 : 0;
          return (parseInt(digit, 16) ^ flip).toString(16);
        })
        .join('');
    const alike = await checkDocumentPhoto(stored('ar-national-id-back.jpg'), {
      ...back,
      otherSide: { phash: away(8) },
    });
    expect(alike.code).toBeNull();
    const same = await checkDocumentPhoto(stored('ar-national-id-back.jpg'), {
      ...back,
      otherSide: { phash: away(2) },
    });
    expect(same.code).toBe('documentPhoto.similarImages');
  });

  it('a page of passport shape on a table sent as a DNI front: the type its shape shows', async () => {
    const page = await sharp(sample('ar-national-id-front.jpg').path)
      .resize({ width: 1000, height: 704, fit: 'fill' })
      .extend({ top: 150, bottom: 150, left: 150, right: 150, background: '#555' })
      .jpeg()
      .toBuffer();
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'finder-')), 'page.jpg');
    await writeFile(file, page);
    const outcome = await checkDocumentPhoto(
      { path: file, filename: 'page.jpg', size: page.length, format: 'jpeg' },
      front,
    );
    expect(outcome.facts.documentOutline).toBe('framed');
    expect(outcome.code).toBe('documentPhoto.typeMismatch');
  });

  it('a card running out of the photo is cropped', async () => {
    const laid = await sharp(sample('ar-national-id-front.jpg').path)
      .resize({ width: 1000 })
      .extend({ top: 150, bottom: 150, left: 150, right: 0, background: '#555' })
      .toBuffer();
    const cut = await sharp(laid).extract({ left: 0, top: 0, width: 1000, height: 900 }).jpeg().toBuffer();
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'finder-')), 'cut.jpg');
    await writeFile(file, cut);
    const outcome = await checkDocumentPhoto(
      { path: file, filename: 'cut.jpg', size: cut.length, format: 'jpeg' },
      front,
    );
    expect(outcome.code).toBe('documentPhoto.croppedDocument');
  });

  it('the rules: corners off the edges, one or two corners on them, no edge but print, nothing', () => {
    const size = { width: 512, height: 323 };
    const quad = [
      { x: 40, y: 30 },
      { x: 470, y: 30 },
      { x: 470, y: 300 },
      { x: 40, y: 300 },
    ];
    const print = { textLines: 6, textChars: 90 };
    expect(judgeOutline({ ...size, quad, ...print }).kind).toBe('framed');
    const cut = quad.map((p) => (p.x === 40 ? { ...p, x: 0 } : p));
    expect(judgeOutline({ ...size, quad: cut, ...print }).kind).toBe('cropped');
    expect(judgeOutline({ ...size, quad: null, ...print }).kind).toBe('fullFrame');
    // A quadrilateral with no print (a door, a window behind a face) is no document.
    expect(judgeOutline({ ...size, quad, textLines: 1, textChars: 8 }).kind).toBe('none');
    const square = [
      { x: 100, y: 30 },
      { x: 400, y: 30 },
      { x: 400, y: 300 },
      { x: 100, y: 300 },
    ];
    expect(judgeOutline({ ...size, quad: square, ...print }).kind).toBe('fullFrame');
    const kite = [
      { x: 40, y: 30 },
      { x: 470, y: 30 },
      { x: 300, y: 300 },
      { x: 200, y: 300 },
    ];
    expect(judgeOutline({ ...size, quad: kite, ...print }).kind).toBe('fullFrame');
  });

  it('the shape names the type only when clear: a card is no passport page and the other way round', () => {
    expect(shapeMismatch(1.59, 'passport')).toBe(true);
    expect(shapeMismatch(1.42, 'national-id')).toBe(true);
    expect(shapeMismatch(1.59, 'national-id')).toBe(false);
    expect(shapeMismatch(1.5, 'passport')).toBe(false);
    expect(shapeMismatch(undefined, 'passport')).toBe(false);
    expect(shapeMismatch(1.42, 'proof-of-residency')).toBe(false);
  });

  it('lines of characters are counted across; scattered marks are not', () => {
    const line = (y: number) => Array.from({ length: 10 }, (_, i) => ({ x: 20 + 12 * i, y, w: 8, h: 10 }));
    expect(textChains([...line(20), ...line(50)])).toEqual({ lines: 2, chars: 20 });
    const scattered = Array.from({ length: 10 }, (_, i) => ({ x: 40 * i, y: (i % 2) * 30, w: 8, h: 10 }));
    expect(textChains(scattered)).toEqual({ lines: 0, chars: 0 });
  });
});
