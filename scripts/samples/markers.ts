// Markers (src/service/docs/checks.md) carry the scenario code and the person shown, in a JPEG's
// COM segments or a PNG's tEXt chunks.
import { crc32 } from 'node:zlib';
import type { ErrorCode } from '@/shared/error-codes';
import { PERSON_MARKER, SCENARIO_MARKER } from '@/shared/error-codes';
import { encodePerson } from '@/checks/inputs/node/marker';
import type { Person } from '@/checks/inputs/node/types';

export const markerTexts = (scenario?: ErrorCode, person?: Person) => [
  ...(scenario ? [`${SCENARIO_MARKER}${scenario}`] : []),
  ...(person ? [`${PERSON_MARKER}${encodePerson(person)}`] : []),
];

/** Inserts one COM segment per text after SOI (and after a JFIF APP0 when there is one). */
export function jpegWithComments(jpeg: Buffer, texts: string[]) {
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at = 4 + jpeg.readUInt16BE(4);
  const segments = texts.map((text) => {
    const body = Buffer.from(text, 'latin1');
    const head = Buffer.alloc(4);
    head.writeUInt16BE(0xfffe, 0);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  });
  return Buffer.concat([jpeg.subarray(0, at), ...segments, jpeg.subarray(at)]);
}

/** Inserts tEXt chunks (keyword idv-scenario / idv-person) right after IHDR. */
export function pngWithText(png: Buffer, texts: string[]) {
  const chunks = texts.map((text) => {
    const [keyword, value] = [text.slice(0, text.indexOf('=')), text.slice(text.indexOf('=') + 1)];
    const data = Buffer.from(`${keyword}\0${value}`, 'latin1');
    const typeAndData = Buffer.concat([Buffer.from('tEXt', 'latin1'), data]);
    const chunk = Buffer.alloc(12 + data.length);
    chunk.writeUInt32BE(data.length, 0);
    typeAndData.copy(chunk, 4);
    chunk.writeUInt32BE(crc32(typeAndData), 8 + data.length);
    return chunk;
  });
  const ihdrEnd = 8 + 25;
  return Buffer.concat([png.subarray(0, ihdrEnd), ...chunks, png.subarray(ihdrEnd)]);
}
