import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const createdDirs: string[] = [];

/** A data dir for a test's service, removed when its test file is done (src/testing/vitest-setup.ts). */
export function tempDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'idv-service-test-'));
  createdDirs.push(dir);
  return dir;
}

// Restart tests reuse a data dir across services, so the dirs go with the file, not the test.
export function removeTempDataDirs() {
  for (const dir of createdDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}
