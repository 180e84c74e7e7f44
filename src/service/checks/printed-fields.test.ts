import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { sample } from '../../../e2e/fixtures/samples';
import { checkDocumentPhoto } from './inputs/document-photo';

/**
 * The printed fields judged from the pixels (no marker): the Argentine passport sample, whose
 * zone states SPECIMEN born 12/04/1985, with one printed field changed the way a forger or a
 * careless edit would, drawn over the sample where `cardSvg` (scripts/samples/drawing.ts) prints
 * field i's value (x 330, baseline 214 + 58·i, DejaVu Sans bold 25 px).
 */
const dir = mkdtempSync(join(tmpdir(), 'idv-printed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function withField(row: number, value: string | null, name: string) {
  const source = sample('ar-passport.jpg').path;
  const top = 190 + 58 * row;
  const area = { left: 326, top, width: 420, height: 34 };
  // The value painted over with the ground's own colour there, then drawn anew (or left blank).
  const { channels } = await sharp(source).extract(area).stats();
  const [r, g, b] = channels.map((c) => Math.round(c.mean));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${area.width}" height="${area.height}">
    <rect width="100%" height="100%" fill="rgb(${r},${g},${b})"/>
    ${value ? `<text x="4" y="24" font-family="DejaVu Sans" font-weight="bold" font-size="25" fill="#111">${value}</text>` : ''}
  </svg>`;
  const path = join(dir, `${name}.jpg`);
  writeFileSync(
    path,
    await sharp(source)
      .composite([{ input: Buffer.from(svg), ...area }])
      .jpeg({ quality: 90 })
      .toBuffer(),
  );
  return path;
}

const check = (path: string) =>
  checkDocumentPhoto(
    { path, filename: 'passport.jpg', size: statSync(path).size, format: 'jpeg' },
    { type: 'passport', country: 'AR', page: 'front', requires: ['mrz'], faceRequired: true, markers: false },
  );

describe('printed fields of a passport page against its zone', () => {
  it('passes the sample as it is, its fields read and equal to the zone', async () => {
    const outcome = await check(sample('ar-passport.jpg').path);
    expect(outcome.code).toBeNull();
    expect(outcome.facts.printed?.layout).toBe('passport/AR/sample');
    for (const key of ['lastName', 'dateOfBirth'] as const)
      expect(outcome.facts.printed?.fields[key]).toMatchObject({ state: 'read', agreement: 'equal' });
    expect(outcome.facts.personSources?.lastName).toBe('mrz');
  });

  it('refuses a changed surname as badText', async () => {
    const outcome = await check(await withField(0, 'GONZÁLEZ', 'surname-changed'));
    expect(outcome.code).toBe('documentPhoto.badText');
    expect(outcome.message).toContain('lastName');
  });

  it('refuses a blanked birth date as missingFields', async () => {
    const outcome = await check(await withField(2, null, 'birth-blank'));
    expect(outcome.code).toBe('documentPhoto.missingFields');
    expect(outcome.message).toContain('dateOfBirth');
  });

  it('refuses an impossible birth date as wrongFormat', async () => {
    const outcome = await check(await withField(2, '31/02/1985', 'birth-impossible'));
    expect(outcome.code).toBe('documentPhoto.wrongFormat');
    expect(outcome.message).toContain('dateOfBirth');
  });
});
