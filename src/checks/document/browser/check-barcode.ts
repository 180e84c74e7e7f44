import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/**
 * Whether a document photo shows a readable PDF417 symbol, with the reader the service uses
 * (zxing-wasm; its wasm is a file of the app, not fetched from a CDN). Loaded by the document step
 * that requires a barcode, on its first photo.
 */

let prepared: Promise<unknown> | undefined;

function prepare() {
  prepared ??= prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) =>
        path.endsWith('.wasm') ? new URL(wasmUrl, location.href).href : prefix + path,
    },
    fireImmediately: true,
  });
  return prepared;
}

export type Pdf417Read = { found: true; valid: boolean; text: string } | { found: false };

/** The PDF417 symbol a photo shows, as the service reads it (`src/checks/document/node/barcode.ts`). */
export async function readPdf417(image: Blob): Promise<Pdf417Read> {
  await prepare();
  const results = await readBarcodes(image, { formats: ['PDF417'], tryHarder: true, maxNumberOfSymbols: 1 });
  const hit = results.find((r) => r.format === 'PDF417');
  return hit ? { found: true, valid: hit.isValid, text: hit.text } : { found: false };
}
