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

export async function hasPdf417(image: Blob): Promise<boolean> {
  await prepare();
  const results = await readBarcodes(image, { formats: ['PDF417'], tryHarder: true, maxNumberOfSymbols: 1 });
  return results.some((r) => r.format === 'PDF417');
}
