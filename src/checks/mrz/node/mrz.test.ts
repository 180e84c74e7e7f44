import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMrzBands, stretchContrast } from '@/checks/mrz/mrz-band';
import {
  idCardMrz,
  OCR_B_PAGE_STATE,
  ocrBCardPerson,
  ocrBPagePerson,
  passportMrz,
} from '../../../../e2e/fixtures/mrz-lines';
import { sample } from '../../../../e2e/fixtures/samples';
import { inspectImage } from '@/checks/image/node/image';
import { closeMrzReader, readMrz, readMrzBands } from './mrz';

/** The grey pixels `readMrz` looks at, at the OCR width. */
async function grey(path: string) {
  const { data, info } = await sharp(path)
    .resize({ width: 1000 })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { grey: stretchContrast(new Uint8Array(data)), width: info.width, height: info.height };
}

describe('MRZ band finder', () => {
  it('finds the two TD3 lines at the foot of a passport and the three TD1 lines of a card back', async () => {
    for (const [file, lines] of [
      ['gb-passport.jpg', 2],
      ['mx-ine-back.jpg', 3],
    ] as const) {
      const { grey: px, width, height } = await grey(sample(file).path);
      const [band] = findMrzBands(px, width, height);
      // The MRZ lines of the samples are drawn 40 px apart, their last baseline 30 px above the foot.
      expect(band.top, file).toBeGreaterThan(height - 30 - lines * 40 - 30);
      expect(band.top + band.height, file).toBeGreaterThan(height - 40);
      expect(band.height / band.lineHeight, file).toBeLessThan(lines * 2 + 1);
    }
  });

  it('finds no band on a selfie (no OCR runs there)', async () => {
    const { grey: px, width, height } = await grey(sample('selfie.jpg').path);
    expect(findMrzBands(px, width, height)).toEqual([]);
  });
});

describe('readMrz', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrz-'));
  });
  afterAll(async () => {
    await closeMrzReader();
    await rm(dir, { recursive: true, force: true });
  });

  it('reads valid, corrupted and TD1 zones, and none on a card without one', async () => {
    const valid = await readMrz(sample('gb-passport.jpg').path);
    expect(valid).toMatchObject({ found: true, valid: true, issuingState: 'GBR', documentCode: 'P' });
    expect(await readMrz(sample('document-bad-mrz.jpg').path)).toMatchObject({ found: true, valid: false });
    expect(await readMrz(sample('document-type-mismatch.jpg').path)).toMatchObject({
      found: true,
      valid: true,
      issuingState: 'ARG',
      documentCode: 'I',
    });
    expect(await readMrz(sample('document-no-mrz.jpg').path)).toEqual({ found: false });
  });

  it('reads a passport that fills a small part of the photo, and one photographed askew', async () => {
    const passport = sample('gb-passport.jpg').path;
    const framed = join(dir, 'framed.jpg');
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#6b5b4b' } })
      .composite([{ input: await sharp(passport).resize(900).toBuffer(), left: 350, top: 300 }])
      .jpeg()
      .toFile(framed);
    const askew = join(dir, 'askew.jpg');
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#444444' } })
      .composite([
        { input: await sharp(passport).rotate(4, { background: '#444444' }).toBuffer(), left: 200, top: 200 },
      ])
      .jpeg()
      .toFile(askew);
    for (const file of [framed, askew])
      expect(await readMrz(file), file).toMatchObject({ found: true, valid: true, issuingState: 'GBR' });
  });

  it("reads the bands send-input gets from the image check's one decode, as from the file", async () => {
    const passport = sample('gb-passport.jpg').path;
    // A large landscape photo: its one decode, 1024 wide, is where the bands are found.
    const large = join(dir, 'large.jpg');
    await sharp(passport).resize(3000).jpeg({ quality: 90 }).toFile(large);
    // A portrait photo: its decode is too narrow, so the finder decodes at the OCR's width.
    const portrait = join(dir, 'portrait.jpg');
    await sharp({ create: { width: 1200, height: 1800, channels: 3, background: '#6b5b4b' } })
      .composite([{ input: await sharp(passport).resize(1100).toBuffer(), left: 50, top: 600 }])
      .jpeg()
      .toFile(portrait);
    for (const file of [
      passport,
      large,
      portrait,
      ...['document-bad-mrz.jpg', 'document-no-mrz.jpg'].map((f) => sample(f).path),
    ]) {
      const inspected = await inspectImage(file, { mrz: true });
      if (!inspected.ok || !inspected.mrzBands) throw new Error(`${file}: no bands`);
      expect(await readMrzBands(inspected.mrzBands), file).toEqual(await readMrz(file));
    }
    const selfie = await inspectImage(sample('selfie.jpg').path, { mrz: true });
    expect(selfie.ok && selfie.mrzBands).toEqual([]);
  });
});

describe('glyph reader (before the OCR)', () => {
  /** The OCR-B page of scripts/make-mrz-glyphs.ts and the zone printed on it. */
  const ocrBPage = new URL('../../../../e2e/fixtures/photos/ocr-b-passport.jpg', import.meta.url).pathname;
  const ocrBZone = passportMrz(OCR_B_PAGE_STATE, ocrBPagePerson);
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrz-glyphs-'));
  });
  afterAll(async () => {
    await closeMrzReader();
    await rm(dir, { recursive: true, force: true });
  });

  async function bands(file: string) {
    const inspected = await inspectImage(file, { mrz: true });
    if (!inspected.ok || !inspected.mrzBands?.length) throw new Error(`${file}: no bands`);
    return inspected.mrzBands;
  }

  it('reads an OCR-B page alone, photographed turned, small, large, dull or a little blurred', async () => {
    const variants: [string, (image: Sharp) => Sharp][] = [
      ['as printed', (image) => image],
      ['turned 3°', (image) => image.rotate(3, { background: '#555555' })],
      ['turned -4.5°', (image) => image.rotate(-4.5, { background: '#555555' })],
      ['700 px at quality 60', (image) => image.resize(700).jpeg({ quality: 60 })],
      ['2500 px', (image) => image.resize(2500)],
      ['dull', (image) => image.linear(0.6, 40)],
      ['blurred σ 1', (image) => image.blur(1)],
    ];
    for (const [name, change] of variants) {
      const file = join(dir, `${name}.jpg`);
      await change(sharp(ocrBPage)).jpeg({ quality: 85 }).toFile(file);
      const [band] = await bands(file);
      expect(band.byGlyphs, name).toMatchObject({
        found: true,
        valid: true,
        lines: ocrBZone,
        issuingState: OCR_B_PAGE_STATE,
      });
      expect(band.byGlyphs, name).toMatchObject({
        person: { lastName: 'DE VRIES', documentNumber: 'NX8K4R2P1', dateOfBirth: '1991-06-23' },
      });
    }
  });

  it("reads an OCR-B identity card's three lines (TD1), its pattern across them, as printed and turned", async () => {
    const card = new URL('../../../../e2e/fixtures/photos/ocr-b-id-back.jpg', import.meta.url).pathname;
    const turned = join(dir, 'card-turned.jpg');
    await sharp(card).rotate(2, { background: '#555555' }).jpeg({ quality: 85 }).toFile(turned);
    for (const file of [card, turned]) {
      const [band] = await bands(file);
      expect(band.byGlyphs, file).toMatchObject({
        found: true,
        valid: true,
        lines: idCardMrz(OCR_B_PAGE_STATE, ocrBCardPerson),
        documentCode: 'I',
        person: { documentNumber: 'ZK3841205', dateOfBirth: '1987-11-02' },
      });
    }
  });

  it("reads a visa's zone (MRV-A), which has no composite check digit, by its glyphs", async () => {
    // ICAO 9303 part 7's MRV-A specimen, drawn in the samples' typeface on a plain page.
    const zone = [
      'VIUTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
      'L8988901C4XXX4009078F96121096ZE184226B<<<<<<',
    ];
    const esc = (text: string) => text.replace(/</g, '&lt;');
    const page = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="640">
      <rect width="100%" height="100%" fill="#f3efe6"/>
      <text x="40" y="80" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#333">VISA · SPECIMEN</text>
      ${zone.map((line, i) => `<text x="40" y="${540 + i * 44}" font-family="DejaVu Sans Mono" font-size="30" fill="#111">${esc(line)}</text>`).join('')}
    </svg>`;
    const file = join(dir, 'visa.jpg');
    await sharp(Buffer.from(page)).jpeg({ quality: 88 }).toFile(file);
    const [band] = await bands(file);
    expect(band.byGlyphs).toMatchObject({
      found: true,
      valid: true,
      lines: zone,
      documentCode: 'VI',
      person: { lastName: 'ERIKSSON', documentNumber: 'L8988901C', dateOfBirth: '1940-09-07' },
    });
  });

  it('reads a zone with a smudge beside one line only (the edge of a copy, a shadow)', async () => {
    // Joined to the data line, the smudge made it longer than the name line: no pitch fitted both.
    const smudge = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><rect x="14" y="634" width="20" height="30" fill="#8a8a8a"/></svg>`;
    const file = join(dir, 'smudge.jpg');
    await sharp(ocrBPage)
      .composite([{ input: Buffer.from(smudge) }])
      .jpeg({ quality: 85 })
      .toFile(file);
    const [band] = await bands(file);
    expect(band.byGlyphs).toMatchObject({ found: true, valid: true, lines: ocrBZone });
  });

  it('stands leaning glyphs upright (a page photographed from one side, or sheared)', async () => {
    for (const matrix of [
      [
        [1, 0.2],
        [0, 1],
      ],
      [
        [1, -0.18],
        [0, 1],
      ],
      [
        [1, 0.25],
        [0.05, 1],
      ],
    ] as [[number, number], [number, number]][]) {
      const file = join(dir, `leaning-${matrix[0][1]}.jpg`);
      await sharp(ocrBPage).affine(matrix, { background: '#555555' }).jpeg({ quality: 85 }).toFile(file);
      const [band] = await bands(file);
      expect(band.byGlyphs, String(matrix)).toMatchObject({ found: true, valid: true, lines: ocrBZone });
    }
  });

  it("reads the samples' zones as the OCR reads them", async () => {
    for (const file of ['gb-passport.jpg', 'ar-passport.jpg', 'document-country-mismatch.jpg']) {
      const [band] = await bands(sample(file).path);
      expect(band.byGlyphs, file).toBeDefined();
      expect(band.byGlyphs, file).toEqual(await readMrzBands([{ pgm: band.pgm }]));
    }
  });

  /** A page with `zone` drawn in DejaVu Sans Mono, each line as `drawn` gives it, turned `degrees`. */
  async function drawnZone(name: string, zone: string[], drawn: (line: string) => string, degrees = 0) {
    const esc = (text: string) => text.replace(/</g, '&lt;');
    const page = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="640">
      <rect width="100%" height="100%" fill="#f3efe6"/>
      <text x="40" y="80" font-family="DejaVu Sans" font-weight="bold" font-size="30" fill="#333">SPECIMEN</text>
      ${zone.map((line, i) => `<text x="40" y="${470 + i * 44}" font-family="DejaVu Sans Mono" font-size="30" fill="#111">${esc(drawn(line))}</text>`).join('')}
    </svg>`;
    const file = join(dir, `${name}.jpg`);
    await sharp(Buffer.from(page))
      .rotate(degrees, { background: '#555555' })
      .jpeg({ quality: 88 })
      .toFile(file);
    return file;
  }

  it("reads a print's zeros that look like its Os as zeros in a document number, by the zone's own dates", async () => {
    // Many passports' zeros are as round as their Os (the typeface's glyphs tell them apart by a
    // few percent): drawn here as the letter O wherever a 0 is printed, the dates' zeros (digits
    // only) show the reader what this print's zeros look like.
    const zone = passportMrz('UTO', {
      fullName: 'ANNA ERIKSSON',
      lastName: 'ERIKSSON',
      firstName: 'ANNA',
      documentNumber: 'CA0000007',
      dateOfBirth: '1970-05-10',
      expiryDate: '2030-10-09',
      sex: 'F',
    });
    for (const degrees of [0, 4, -3]) {
      const file = await drawnZone(
        `round-zeros-${degrees}`,
        zone,
        (line) => line.replace(/0/g, 'O'),
        degrees,
      );
      const [band] = await bands(file);
      expect(band.byGlyphs, `${degrees}°`).toMatchObject({
        found: true,
        valid: true,
        lines: zone,
        person: { documentNumber: 'CA0000007', lastName: 'ERIKSSON' },
      });
    }
  });

  it('does not make misprinted check digits hold by swaps the print does not show', async () => {
    // The zone of a public specimen card (PassportEye's 33_id-usa, here issued by Utopia): its
    // number's and its composite check digit are those of `02Z345679` and `…EAC9730D51220`, so
    // swapping a 2 for a Z and a 0 for a D made both hold, and a search over every look-alike
    // reported that document number, which nobody printed, as read.
    const zone = [
      'I<UTO0223456791EAC9730051220<<',
      '4910040M9411014UTO<<<<<<<<<<<0',
      'CRITTENDEN<<LEE<W<<<<<<<<<<<<<',
    ];
    const file = await drawnZone('misprinted', zone, (line) => line);
    const [band] = await bands(file);
    expect(band.byGlyphs).toBeUndefined();
    expect(await readMrz(file)).toMatchObject({ found: true, valid: false, lines: zone });
  });

  it('leaves a failed check digit and a blurred zone to the OCR', async () => {
    const [bad] = await bands(sample('document-bad-mrz.jpg').path);
    expect(bad.byGlyphs).toBeUndefined();
    expect(await readMrzBands([bad])).toMatchObject({ found: true, valid: false });
    const blurred = join(dir, 'blurred.jpg');
    await sharp(ocrBPage).blur(1.8).jpeg({ quality: 85 }).toFile(blurred);
    const [band] = await bands(blurred);
    expect(band.byGlyphs).toBeUndefined();
  });
});

describe('zones of photos held askew, sideways or upside down', () => {
  const ocrBPage = new URL('../../../../e2e/fixtures/photos/ocr-b-passport.jpg', import.meta.url).pathname;
  const ocrBZone = passportMrz(OCR_B_PAGE_STATE, ocrBPagePerson);
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mrz-turned-'));
  });
  afterAll(async () => {
    await closeMrzReader();
    await rm(dir, { recursive: true, force: true });
  });

  it('finds and reads a zone with glare across half its data line', async () => {
    // A streak of light over the left half of the data line: its print there is pale grey on white,
    // too faint for the band finder's edges (the line is found from the glare's far side only) and
    // for one threshold over the whole band.
    for (const [opacity, turn] of [
      [0.7, 0],
      [0.85, 0],
    ]) {
      const glare = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><defs><linearGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="${opacity}"/><stop offset="0.85" stop-color="#fff" stop-opacity="${opacity}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></linearGradient></defs><rect x="20" y="632" width="440" height="46" fill="url(#g)"/></svg>`;
      const file = join(dir, `glare-${opacity}-${turn}.jpg`);
      await sharp(ocrBPage)
        .composite([{ input: Buffer.from(glare) }])
        .rotate(turn, { background: '#555555' })
        .jpeg({ quality: 85 })
        .toFile(file);
      expect(await readMrz(file), `${opacity} ${turn}°`).toMatchObject({
        found: true,
        valid: true,
        lines: ocrBZone,
      });
    }
  });

  it('reads an OCR-B page turned 10° either way, a quarter turn either way and upside down', async () => {
    const variants: [string, (image: Sharp) => Sharp][] = [
      ['turned 10°', (image) => image.rotate(10, { background: '#555555' })],
      ['turned -10°', (image) => image.rotate(-10, { background: '#555555' })],
      ['turned -7° and small', (image) => image.rotate(-7, { background: '#555555' }).resize(800)],
      // A page lying ~20° askew in the photo and the hand's 10° more (the finder stopped at 25°).
      ['turned 30°', (image) => image.rotate(30, { background: '#555555' })],
      ['turned -33°', (image) => image.rotate(-33, { background: '#555555' })],
      ['sideways (90°)', (image) => image.rotate(90)],
      ['sideways (270°)', (image) => image.rotate(270)],
      ['upside down', (image) => image.rotate(180)],
    ];
    for (const [name, change] of variants) {
      const file = join(dir, `${name}.jpg`);
      await change(sharp(ocrBPage)).jpeg({ quality: 85 }).toFile(file);
      expect(await readMrz(file), name).toMatchObject({ found: true, valid: true, lines: ocrBZone });
    }
  });

  it("finds the zone when the name line's trailing filler is too faint to give edges", async () => {
    // Thin `<` strokes fade first in a small or blurred photo: the name line then looks ~4 glyphs
    // shorter than the line below it, and the two were not taken for one zone.
    const faint = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><rect x="790" y="595" width="100" height="32" fill="#f1ecf6" fill-opacity="0.8"/></svg>`;
    const { data, info } = await sharp(ocrBPage)
      .composite([{ input: Buffer.from(faint) }])
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const bands = findMrzBands(stretchContrast(new Uint8Array(data)), info.width, info.height);
    expect(bands).toHaveLength(1);
    expect(bands[0].top).toBeGreaterThan(560);
    // The band reaches the end of the longer line, so nothing of the zone is cut off.
    expect(bands[0].left + bands[0].width).toBeGreaterThan(866);
  });

  it("finds the zone beside a page's printed frame whose rounded corner runs close to its last line", async () => {
    // The frame ends 1–2 glyphs after the zone and just below it: joined to one line only, it
    // made the lines unequal, and clean scans framed so had no band.
    for (const bottom of [675, 685, 695]) {
      const frame = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="700"><rect x="20" y="20" width="860" height="${bottom - 20}" rx="40" stroke="#111" stroke-width="3" fill="none"/></svg>`;
      const { data, info } = await sharp(ocrBPage)
        .composite([{ input: Buffer.from(frame) }])
        .greyscale()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const bands = findMrzBands(stretchContrast(new Uint8Array(data)), info.width, info.height);
      expect(bands.length, `frame to ${bottom}`).toBe(1);
      expect(bands[0].top, `frame to ${bottom}`).toBeGreaterThan(560);
    }
  });
});
