import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  addJpegSegments,
  jpegHeadWithoutExif,
  readImageHeader,
  readTextMarkers,
  stripJpegLocation,
  stripPngLocation,
} from './image-bytes';

const MARKER = 'idv-scenario=documentPhoto.noMrz';
// 46.14″ as an EXIF rational (4614/100), in both byte orders: present only while GPS data is.
const latitudeSeconds = (little: boolean) => {
  const b = Buffer.alloc(8);
  if (little) {
    b.writeUInt32LE(4614, 0);
    b.writeUInt32LE(100, 4);
  } else {
    b.writeUInt32BE(4614, 0);
    b.writeUInt32BE(100, 4);
  }
  return b;
};
const hasLatitude = (bytes: Uint8Array) => {
  const buffer = Buffer.from(bytes);
  return buffer.includes(latitudeSeconds(true)) || buffer.includes(latitudeSeconds(false));
};
const gps = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '40/1 26/1 4614/100',
  GPSLongitudeRef: 'W',
  GPSLongitude: '79/1 58/1 5599/100',
};

/** A noisy photo-like JPEG with camera EXIF, GPS and an orientation tag. */
async function photoWithGps(orientation = 6) {
  const { width, height } = { width: 800, height: 640 };
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withMetadata({ orientation })
    .withExif({ IFD0: { Make: 'TestCam', Model: 'Sample 1' }, IFD3: gps })
    .toBuffer();
}

/** A COM segment spliced right after SOI, as the sample maker writes scenario markers. */
function withComment(jpeg: Buffer, text: string) {
  const body = Buffer.from(text, 'utf8');
  const segment = Buffer.concat([
    Buffer.from([0xff, 0xfe, (body.length + 2) >> 8, (body.length + 2) & 0xff]),
    body,
  ]);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** An APP1 XMP packet that repeats the location, as phone cameras write it. */
function withXmp(jpeg: Buffer) {
  const xmp = Buffer.from(
    'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><rdf:Description exif:GPSLatitude="40,26.769N"/></x:xmpmeta>',
    'latin1',
  );
  const head = Buffer.from([0xff, 0xe1, (xmp.length + 2) >> 8, (xmp.length + 2) & 0xff]);
  return Buffer.concat([jpeg.subarray(0, 2), head, xmp, jpeg.subarray(2)]);
}

function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** Inserts a chunk right before IEND. */
function insertBeforeIend(png: Buffer, chunk: Buffer) {
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), chunk, png.subarray(iend)]);
}

const rebuilt = (original: Uint8Array, stripped: { head: Uint8Array; restStart: number }) =>
  Buffer.concat([stripped.head, original.subarray(stripped.restStart)]);

describe('stripJpegLocation', () => {
  it('drops the GPS data of a camera JPEG and keeps its pixels, orientation, other EXIF and comments', async () => {
    const original = withComment(withXmp(await photoWithGps(6)), MARKER);
    expect(hasLatitude(original)).toBe(true);
    expect(original.includes('exif:GPSLatitude')).toBe(true);

    const stripped = stripJpegLocation(original);
    expect(stripped?.changed).toBe(true);
    const out = rebuilt(original, stripped!);

    expect(hasLatitude(out)).toBe(false);
    expect(out.includes('exif:GPSLatitude')).toBe(false);
    expect(out.includes(MARKER)).toBe(true);
    expect(readTextMarkers(out)).toEqual([MARKER]);
    expect(out.includes('TestCam')).toBe(true);

    const meta = await sharp(out).metadata();
    expect(meta.orientation).toBe(6);
    expect(meta.exif).toBeDefined();
    const [before, after] = await Promise.all([
      sharp(original).raw().toBuffer(),
      sharp(out).raw().toBuffer(),
    ]);
    expect(after.equals(before)).toBe(true);
  });

  it('works on the head of the file alone, so a big photo is never read whole', async () => {
    const original = withComment(await photoWithGps(1), MARKER);
    const stripped = stripJpegLocation(original.subarray(0, stripped0(original) + 16));
    expect(stripped).not.toBeNull();
    expect(hasLatitude(rebuilt(original, stripped!))).toBe(false);
    // Bytes that end before the scan starts cannot be rewritten safely.
    expect(stripJpegLocation(original.subarray(0, 40))).toBeNull();
  });

  it('handles big-endian (Motorola) EXIF as many phones write it', async () => {
    // IFD0 at 8: Orientation=6 and the GPS pointer; GPS IFD at 38: LatitudeRef 'N', Latitude at 68.
    const tiff = Buffer.alloc(92);
    tiff.write('MM', 0, 'latin1');
    tiff.writeUInt16BE(42, 2);
    tiff.writeUInt32BE(8, 4);
    // An IFD entry is tag, type, count, then 4 bytes of value or offset (written by the caller).
    const entry = (at: number, tag: number, type: number, count: number) => {
      tiff.writeUInt16BE(tag, at);
      tiff.writeUInt16BE(type, at + 2);
      tiff.writeUInt32BE(count, at + 4);
    };
    tiff.writeUInt16BE(2, 8);
    entry(10, 0x0112, 3, 1);
    tiff.writeUInt16BE(6, 18);
    entry(22, 0x8825, 4, 1);
    tiff.writeUInt32BE(38, 30);
    tiff.writeUInt32BE(0, 34);
    tiff.writeUInt16BE(2, 38);
    entry(40, 0x0001, 2, 2);
    tiff.write('N', 48, 'latin1');
    entry(52, 0x0002, 5, 3);
    tiff.writeUInt32BE(68, 60);
    tiff.writeUInt32BE(0, 64);
    [40, 1, 26, 1, 4614, 100].forEach((v, i) => tiff.writeUInt32BE(v, 68 + i * 4));
    const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
    const app1 = Buffer.concat([
      Buffer.from([0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]),
      payload,
    ]);
    const plain = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#48c' } })
      .jpeg()
      .toBuffer();
    const original = Buffer.concat([plain.subarray(0, 2), app1, plain.subarray(2)]);
    expect(hasLatitude(original)).toBe(true);
    expect(readImageHeader(original)).toEqual({ format: 'jpeg', width: 700, height: 900, orientation: 6 });

    const out = rebuilt(original, stripJpegLocation(original)!);
    expect(hasLatitude(out)).toBe(false);
    expect(readImageHeader(out)?.orientation).toBe(6);
    expect((await sharp(out).metadata()).orientation).toBe(6);
  });

  it('leaves a JPEG without location data as it is', async () => {
    const plain = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#3a6' } })
      .jpeg()
      .toBuffer();
    const stripped = stripJpegLocation(plain);
    expect(stripped?.changed).toBe(false);
    expect(rebuilt(plain, stripped!).equals(plain)).toBe(true);
  });
});

/** Offset of the SOS marker, found the slow way. */
function stripped0(bytes: Buffer) {
  for (let i = 2; i < bytes.length - 1; i++) if (bytes[i] === 0xff && bytes[i + 1] === 0xda) return i;
  throw new Error('no SOS');
}

describe('stripPngLocation', () => {
  it('empties the GPS directory of a PNG eXIf chunk with a valid CRC', async () => {
    const png = await sharp({ create: { width: 700, height: 700, channels: 3, background: '#c33' } })
      .png()
      .withExif({ IFD0: { Make: 'TestCam' }, IFD3: gps })
      .toBuffer();
    expect(hasLatitude(png)).toBe(true);
    const { bytes, changed } = stripPngLocation(png);
    expect(changed).toBe(true);
    expect(hasLatitude(bytes)).toBe(false);
    // libpng checks chunk CRCs: a wrong one would make sharp refuse or drop the chunk.
    const meta = await sharp(Buffer.from(bytes)).metadata();
    expect(meta.width).toBe(700);
    expect(Buffer.from(bytes).includes('TestCam')).toBe(true);
  });
});

describe('readImageHeader', () => {
  it('reads JPEG size as displayed (orientation 6 swaps the sides)', async () => {
    expect(readImageHeader(await photoWithGps(6))).toEqual({
      format: 'jpeg',
      width: 640,
      height: 800,
      orientation: 6,
    });
    expect(readImageHeader(await photoWithGps(1))).toEqual({
      format: 'jpeg',
      width: 800,
      height: 640,
      orientation: 1,
    });
  });

  it('reads PNG size', async () => {
    const png = await sharp({ create: { width: 1200, height: 500, channels: 4, background: '#fff' } })
      .png()
      .toBuffer();
    expect(readImageHeader(png)).toEqual({ format: 'png', width: 1200, height: 500, orientation: 1 });
  });

  it('gives null for bytes that are not an image header', () => {
    expect(readImageHeader(new TextEncoder().encode('just some text, named photo.jpg'))).toBeNull();
    expect(readImageHeader(new Uint8Array([0xff, 0xd8, 0xff]))).toBeNull();
  });
});

describe('scenario markers', () => {
  it('reads PNG text chunks in both spellings the service accepts', async () => {
    const png = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#39c' } })
      .png()
      .toBuffer();
    const withKeyword = insertBeforeIend(
      png,
      pngChunk('tEXt', Buffer.from('idv-scenario\0selfiePhoto.closedEyes', 'latin1')),
    );
    expect(readTextMarkers(withKeyword)).toEqual(['idv-scenario=selfiePhoto.closedEyes']);
    const inComment = insertBeforeIend(png, pngChunk('tEXt', Buffer.from(`Comment\0${MARKER}`, 'latin1')));
    expect(readTextMarkers(inComment)).toEqual([MARKER]);
    expect(readTextMarkers(png)).toEqual([]);
  });

  it('writes comments into a re-encoded JPEG after its APP segments', async () => {
    const plain = await sharp({ create: { width: 640, height: 640, channels: 3, background: '#963' } })
      .jpeg()
      .toBuffer();
    // A JFIF APP0 segment, as a canvas encoder writes it.
    const app0 = Buffer.from([0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const jpeg = Buffer.concat([plain.subarray(0, 2), app0, plain.subarray(2)]);
    const out = addJpegSegments(jpeg, { comments: [MARKER] });
    expect(readTextMarkers(out)).toEqual([MARKER]);
    // JFIF's APP0 stays first, where strict readers look for it.
    expect([out[2], out[3]]).toEqual([0xff, 0xe0]);
    expect([out[20], out[21]]).toEqual([0xff, 0xfe]);
    expect((await sharp(Buffer.from(out)).metadata()).width).toBe(640);
  });

  it('writes an orientation that sharp and the header reader both honour', async () => {
    // 64×32 stored, turned a quarter clockwise (6) when displayed: 32×64.
    const stored = await sharp({ create: { width: 64, height: 32, channels: 3, background: '#963' } })
      .jpeg()
      .toBuffer();
    const out = addJpegSegments(stored, { comments: [MARKER], orientation: 6 });
    expect(readImageHeader(out)).toEqual({ format: 'jpeg', width: 32, height: 64, orientation: 6 });
    expect(readTextMarkers(out)).toEqual([MARKER]);
    const meta = await sharp(Buffer.from(out)).metadata();
    expect(meta.orientation).toBe(6);
    const upright = await sharp(Buffer.from(out)).rotate().toBuffer({ resolveWithObject: true });
    expect([upright.info.width, upright.info.height]).toEqual([32, 64]);
    // Orientation 1 adds nothing.
    expect(addJpegSegments(stored, { orientation: 1 })).toBe(stored);
  });

  it('drops every EXIF segment of a head, keeping the other segments and the scan', async () => {
    const photo = await photoWithGps(6);
    const commented = addJpegSegments(photo, { comments: [MARKER] });
    const stripped = jpegHeadWithoutExif(commented);
    if (!stripped) throw new Error('no SOS in the bytes');
    expect(stripped.changed).toBe(true);
    const file = Buffer.concat([stripped.head, commented.subarray(stripped.restStart)]);
    expect(readImageHeader(file)).toEqual({ format: 'jpeg', width: 800, height: 640, orientation: 1 });
    expect(readTextMarkers(file)).toEqual([MARKER]);
    expect(hasLatitude(file)).toBe(false);
    const meta = await sharp(file).metadata();
    expect([meta.width, meta.height, meta.orientation, meta.exif]).toEqual([800, 640, undefined, undefined]);
    expect(jpegHeadWithoutExif(commented.subarray(0, 40))).toBeNull();
  });
});
