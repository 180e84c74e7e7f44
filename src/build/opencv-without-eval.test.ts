import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCvWithoutEval } from './opencv-without-eval';

const require = createRequire(import.meta.url);
const glue = require.resolve('opencv-wasm/opencv.js');

describe("OpenCV's glue without string evaluation", () => {
  it('builds its bindings and finds a contour where strings cannot be evaluated', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'opencv-'));
    writeFileSync(path.join(dir, 'opencv.mjs'), openCvWithoutEval(readFileSync(glue, 'utf8')));
    // Node's --disallow-code-generation-from-strings makes eval and new Function throw, as a
    // policy without 'unsafe-eval' does in a browser.
    writeFileSync(
      path.join(dir, 'run.mjs'),
      `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import openCv from './opencv.mjs';
// Emscripten's Node branch looks for CommonJS's globals.
globalThis.require = createRequire(import.meta.url);
globalThis.__dirname = import.meta.dirname;
const compiled = await WebAssembly.compile(readFileSync(${JSON.stringify(path.join(path.dirname(glue), 'opencv.wasm'))}));
const cv = {
  // This Emscripten binds its exports as it loads: the instance is made at once from a module
  // compiled beforehand, as the document worker does.
  instantiateWasm(imports, receive) {
    const instance = new WebAssembly.Instance(compiled, imports);
    receive(instance, compiled);
    return instance.exports;
  },
};
// Emscripten fills the settings object in: it is the module, whole once the call returns (the
// helpers, Size, Point and matFromArray, come last).
openCv(cv);
{
    const image = cv.Mat.zeros(100, 160, cv.CV_8UC1);
    cv.rectangle(image, new cv.Point(20, 20), new cv.Point(140, 80), new cv.Scalar(255), -1);
    const contours = new cv.MatVector();
    const hierarchy = new cv.Mat();
    cv.findContours(image, contours, hierarchy, cv.RETR_EXTERNAL, cv.CHAIN_APPROX_SIMPLE);
    console.log(JSON.stringify({ contours: contours.size(), area: cv.contourArea(contours.get(0)) }));
    try { new Function('return 1'); console.log('eval allowed'); } catch { console.log('eval refused'); }
}
`,
    );
    const run = spawnSync(process.execPath, ['--disallow-code-generation-from-strings', 'run.mjs'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    const [figures, evaluation] = run.stdout.trim().split('\n');
    expect(JSON.parse(figures!)).toEqual({ contours: 1, area: 7200 });
    expect(evaluation).toBe('eval refused');
  });

  it('refuses a glue it does not know', () => {
    expect(() => openCvWithoutEval('let Module = {};')).toThrow(/has changed/);
  });
});
