import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noisePhoto } from '../../../e2e/fixtures/noise-photo';
import { scanBomb } from '../../../e2e/fixtures/scan-bomb';
import { imageDecodeBudgetInUse, imageWorkerThreadIds, inspectImageInPool } from './image-pool';

const dir = mkdtempSync(join(tmpdir(), 'idv-image-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, bytes: Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
};

// The pool takes images as the header check lets them through; these scan bombs (1,500 scans,
// seconds of decoding) are handed to it directly as slow images. The header check refuses them.
// Ending a worker stops its JavaScript and wasm at once; a libvips decode under way in the
// process's libuv threads runs to its end, which the header's bounds keep short.
describe('the image pool', () => {
  it("takes one verification's images in turns with another's: B's photo does not wait for all of A's", async () => {
    // A's six images each hold a worker for their whole time (1 s here: the bomb's decode takes
    // longer on any machine; at 3 s a quiet one finished it) and are then ended.
    const slow = write('slow.jpg', scanBomb(1_500, 4096));
    const photo = write('photo.jpg', await noisePhoto(1200, 900));
    const done: string[] = [];
    const inspect = (label: string, path: string, owner: string, timeLimitMs?: number) =>
      inspectImageInPool({ path }, { owner, timeLimitMs }).then((result) => {
        done.push(label);
        return result;
      });
    const a = ['A1', 'A2', 'A3', 'A4', 'A5', 'A6'].map((label) => inspect(label, slow, 'A', 1_000));
    const b = await inspect('B', photo, 'B');
    expect(b.ok).toBe(true);
    // With one worker per core (two here), A1 and A2 start at once, then A3 and B take the slots
    // they free, before A4 (in one line, B would start after A5).
    expect(done.indexOf('B')).toBeLessThanOrEqual(3);
    for (const result of await Promise.all(a)) expect(result.ok).toBe(false);
    expect(imageDecodeBudgetInUse()).toBe(0);
  }, 300_000);

  it('ends the worker of an image past its time, and a fresh one takes the next image', async () => {
    const bomb = write('bomb.jpg', scanBomb(1_500, 4096));
    const result = inspectImageInPool({ path: bomb }, { timeLimitMs: 1_000 });
    const running = imageWorkerThreadIds();
    expect(running.length).toBeGreaterThan(0);
    expect(await result).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/took over 1 s/) as unknown,
    });
    // The worker that was decoding it is gone; its decode stopped with it.
    const ended = running.filter((id) => !imageWorkerThreadIds().includes(id));
    expect(ended.length).toBe(1);
    const photo = write('after.jpg', await noisePhoto(1200, 900));
    expect((await inspectImageInPool({ path: photo })).ok).toBe(true);
    expect(imageWorkerThreadIds()).not.toContain(ended[0]);
    expect(imageDecodeBudgetInUse()).toBe(0);
  }, 120_000);

  it('stops an image whose check is given up, running or waiting', async () => {
    const bomb = write('given-up.jpg', scanBomb(1_500, 4096));
    const controller = new AbortController();
    // Both workers busy, a third image waiting behind them: all three given up.
    const given = [1, 2, 3].map(() => inspectImageInPool({ path: bomb }, { signal: controller.signal }));
    const running = imageWorkerThreadIds();
    controller.abort();
    for (const result of await Promise.all(given)) {
      expect(result).toMatchObject({ ok: false, reason: 'the check was stopped' });
    }
    expect(imageWorkerThreadIds().filter((id) => running.includes(id))).toEqual([]);
    expect(imageDecodeBudgetInUse()).toBe(0);
    const stopped = new AbortController();
    stopped.abort();
    expect(await inspectImageInPool({ path: bomb }, { signal: stopped.signal })).toMatchObject({ ok: false });
  }, 120_000);
});
