import { statSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { judgeOutline } from '@/shared/document-outline';
import { sample } from '../../../e2e/fixtures/samples';
import { checkDocumentPhoto, type DocumentPhotoContext } from './check-input';
import { findDocument } from './document-finder';

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
    const found = findDocument(await rgba('ar-national-id-front.jpg', 120));
    expect(found.verdict).toBe('framed');
    expect(found.aspect).toBeGreaterThan(1.5);
    expect(found.aspect).toBeLessThan(1.68);
    expect(found.mrzCrop?.width).toBe(1000);
  });

  it('finds no document in a photo of a face filling the frame', async () => {
    expect(findDocument(await rgba('selfie.jpg')).verdict).toBe('none');
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

  it('the rules: corners off the edges, one or two corners on them, no edge but text, nothing', () => {
    const size = { width: 512, height: 323 };
    const quad = [
      { x: 40, y: 30 },
      { x: 470, y: 30 },
      { x: 470, y: 300 },
      { x: 40, y: 300 },
    ];
    expect(judgeOutline({ ...size, quad, textLines: 0 }).kind).toBe('framed');
    const cut = quad.map((p) => (p.x === 40 ? { ...p, x: 0 } : p));
    expect(judgeOutline({ ...size, quad: cut, textLines: 9 }).kind).toBe('cropped');
    expect(judgeOutline({ ...size, quad: null, textLines: 9 }).kind).toBe('fullFrame');
    expect(judgeOutline({ ...size, quad: null, textLines: 1 }).kind).toBe('none');
    const square = [
      { x: 100, y: 30 },
      { x: 400, y: 30 },
      { x: 400, y: 300 },
      { x: 100, y: 300 },
    ];
    expect(judgeOutline({ ...size, quad: square, textLines: 0 }).kind).toBe('none');
  });
});
