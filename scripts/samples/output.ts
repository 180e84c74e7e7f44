// Where the sample generator writes: the committed samples folder, a scratch folder of its own
// for ffmpeg's and qpdf's inputs, and the manifest, which lists the samples in the order written.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SampleEntry } from '../../e2e/fixtures/samples';

export const outDir = fileURLToPath(new URL('../../e2e/fixtures/samples/', import.meta.url));
export const work = join(tmpdir(), `idv-samples-${process.pid}`);

export const manifest: SampleEntry[] = [];
export const add = (entry: SampleEntry) => manifest.push(entry);
export const save = (file: string, bytes: Uint8Array) => writeFileSync(join(outDir, file), bytes);
