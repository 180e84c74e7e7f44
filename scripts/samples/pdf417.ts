// The PDF417 symbols of the Argentine DNI's back, written by zxing-wasm from a DNI record.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { prepareZXingModule, writeBarcode } from 'zxing-wasm/writer';
import { dmy } from './drawing';
import type { people } from './people';

const require = createRequire(import.meta.url);
const writerWasm = readFileSync(require.resolve('zxing-wasm/writer/zxing_writer.wasm'));
await prepareZXingModule({
  overrides: {
    wasmBinary: writerWasm.buffer.slice(writerWasm.byteOffset, writerWasm.byteOffset + writerWasm.byteLength),
  },
  fireImmediately: true,
});

export const arPdf417Text = (p: typeof people.ar) =>
  `00512345678@${p.lastName}@${p.firstName}@${p.sex}@${p.documentNumber}@A@${dmy(p.dateOfBirth)}@${dmy(p.issueDate)}@239`;

export async function pdf417Png(text: string) {
  const result = await writeBarcode(text, { format: 'PDF417', scale: 3 });
  if (!result.image) throw new Error(`PDF417 writer: ${result.error}`);
  return sharp(Buffer.from(await result.image.arrayBuffer()))
    .resize({ width: 560, height: 200, fit: 'fill', kernel: 'nearest' })
    .png()
    .toBuffer();
}
