import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

let prepared: Promise<void> | undefined;

/** Loads zxing's wasm from node_modules once; the library would otherwise fetch it from a CDN. */
function prepare(): Promise<void> {
  prepared ??= (async () => {
    const wasmPath = createRequire(import.meta.url).resolve('zxing-wasm/reader/zxing_reader.wasm');
    const bytes = await readFile(wasmPath);
    const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await prepareZXingModule({ overrides: { wasmBinary }, fireImmediately: true });
  })();
  return prepared;
}

export type Pdf417Read = { found: true; valid: boolean; text: string } | { found: false };

/** Looks for a PDF417 symbol in an encoded image (PNG/JPEG bytes). */
export async function readPdf417(image: Uint8Array): Promise<Pdf417Read> {
  await prepare();
  const results = await readBarcodes(image, { formats: ['PDF417'], tryHarder: true, maxNumberOfSymbols: 1 });
  const hit = results.find((r) => r.format === 'PDF417');
  return hit ? { found: true, valid: hit.isValid, text: hit.text } : { found: false };
}

/** Looks for a PDF417 symbol in decoded RGBA pixels (inspectImage's one decode). */
export async function readPdf417Pixels(image: {
  data: Uint8Array;
  width: number;
  height: number;
}): Promise<Pdf417Read> {
  await prepare();
  const results = await readBarcodes(
    { data: image.data, width: image.width, height: image.height } as unknown as Parameters<
      typeof readBarcodes
    >[0],
    { formats: ['PDF417'], tryHarder: true, maxNumberOfSymbols: 1 },
  );
  const hit = results.find((r) => r.format === 'PDF417');
  return hit ? { found: true, valid: hit.isValid, text: hit.text } : { found: false };
}
