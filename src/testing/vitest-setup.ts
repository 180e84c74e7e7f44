// Run before each test file. Vitest runs many files in one process (isolate: false, so the
// models, OCR data and WebAssembly load once per process): what a file must start afresh is here.
import { afterAll } from 'vitest';
import { restartDraws } from '../../e2e/fixtures/seed-sequence';
import { removeTempDataDirs } from '../service/testing/temp-dirs';

restartDraws();
afterAll(() => removeTempDataDirs());
