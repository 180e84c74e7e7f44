import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileFormat } from '@/shared/file-format';
import { MAX_VIDEO_DECODED_PIXELS, MAX_VIDEO_SECONDS } from '@/shared/limits';
import { checkContainer } from '@/checks/video/node/video';
import { samplePath } from '../../../e2e/fixtures/samples';
import { checkSelfieVideo } from './inputs/selfie-video';
import { videoFrames } from './face-checks';
import { FrameReadError, runFfmpeg } from './frame-reader';
import type { StoredFile } from '@/checks/inputs/node/types';

const dir = mkdtempSync(path.join(tmpdir(), 'idv-frames-'));
const store = (name: string, bytes: Uint8Array, format: FileFormat): StoredFile => {
  const file = path.join(dir, name);
  writeFileSync(file, bytes);
  return { path: file, filename: name, size: bytes.length, format };
};
/** The native FFmpeg 4.1 of the bench (a devDependency), run as an operator's FFMPEG_PATH would be. */
const nativeFfmpeg = path.join(
  path.dirname(createRequire(import.meta.url).resolve('@ffmpeg-installer/linux-x64/package.json')),
  'ffmpeg',
);
const backends = [
  ['wasm (@ffmpeg/core, the default)', undefined],
  ['native (FFMPEG_PATH)', nativeFfmpeg],
] as const;
async function withBackend<T>(ffmpegPath: string | undefined, run: () => Promise<T>) {
  const saved = process.env.FFMPEG_PATH;
  if (ffmpegPath) process.env.FFMPEG_PATH = ffmpegPath;
  else delete process.env.FFMPEG_PATH;
  try {
    return await run();
  } finally {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
  }
}

/** The offset of a box's body in an MP4 (the first one of that type, searched by its name). */
function boxBody(bytes: Buffer, type: string) {
  const at = bytes.indexOf(Buffer.from(type, 'latin1'));
  if (at < 4) throw new Error(`no ${type} box`);
  return at + 4;
}

/** liveness.mp4 with its movie header's length, or its track's frame size, rewritten. */
function patchedMp4(patch: { seconds?: number; width?: number; height?: number }) {
  const bytes = Buffer.from(readFileSync(samplePath('liveness.mp4')));
  const mvhd = boxBody(bytes, 'mvhd');
  if (bytes[mvhd] !== 0) throw new Error('the sample has a version-1 mvhd');
  if (patch.seconds !== undefined) {
    const timescale = bytes.readUInt32BE(mvhd + 12);
    bytes.writeUInt32BE(Math.round(patch.seconds * timescale), mvhd + 16);
  }
  if (patch.width !== undefined && patch.height !== undefined) {
    const tkhd = boxBody(bytes, 'tkhd');
    const size = bytes.readUInt32BE(tkhd - 8);
    // Width and height are the box's last 8 bytes, 16.16 fixed point.
    bytes.writeUInt32BE(patch.width * 65536, tkhd - 8 + size - 8);
    bytes.writeUInt32BE(patch.height * 65536, tkhd - 8 + size - 4);
  }
  return bytes;
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the limits a video header declares, enforced by the service', () => {
  it.each([
    ['10 hours', { seconds: 36_000 }, /declares 36000 s; at most 30 s/],
    [`${MAX_VIDEO_SECONDS + 1} s`, { seconds: MAX_VIDEO_SECONDS + 1 }, /at most 30 s/],
    ['0 s', { seconds: 0 }, /length of zero/],
    ['frames of 60000×60000', { width: 60_000, height: 60_000 }, /60000×60000/],
  ] as const)('refuses an MP4 declaring %s with the spec code', async (_label, patch, message) => {
    const outcome = await checkSelfieVideo(store('declared.mp4', patchedMp4(patch), 'mp4'));
    expect(outcome).toMatchObject({
      code: 'voiceVideo.conversionFailed',
      message: expect.stringMatching(message),
    });
  });

  it('accepts the sample as it is (3 s, 360×480)', async () => {
    const outcome = await checkSelfieVideo(store('as-is.mp4', patchedMp4({}), 'mp4'));
    expect(outcome.facts).toMatchObject({ durationSeconds: 3 });
  });

  it('counts the frames of the video track from the header: an MP4 sample table, WebM blocks', async () => {
    for (const clip of ['liveness.mp4', 'liveness.webm', 'liveness.mov']) {
      const format = clip.endsWith('webm') ? 'webm' : clip.endsWith('mov') ? 'mov' : 'mp4';
      const header = await checkContainer(samplePath(clip), format);
      // FFmpeg's own count of the decoded frames is the truth.
      const { stderr } = spawnSync(
        nativeFfmpeg,
        ['-hide_banner', '-i', samplePath(clip), '-map', '0:v:0', '-f', 'null', '-'],
        {
          encoding: 'utf8',
        },
      );
      const decoded = Number([...stderr.matchAll(/frame=\s*(\d+)/g)].at(-1)?.[1]);
      expect(header, clip).toMatchObject({ ok: true, frames: decoded });
    }
    // A fragmented MP4 lists its frames in the fragments only: none from the header.
    const fragmented = await checkContainer(samplePath('liveness-fragmented.mp4'), 'mp4');
    expect(fragmented).toMatchObject({ ok: true, frames: undefined });
  });

  // Issue 34 item 6: a 4K video at 60 frames a second held the one FFmpeg for half a minute, and an
  // ordinary liveness video waited behind it. Its header says what decoding it would cost.
  it('refuses a 4K video at 60 frames a second from its header, before any decode', async () => {
    const file = path.join(dir, '4k60.mp4');
    execFileSync(nativeFfmpeg, [
      '-hide_banner',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'color=c=gray:s=3840x2160:r=60',
      '-t',
      '4',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      '-y',
      file,
    ]);
    const header = await checkContainer(file, 'mp4');
    expect(header).toMatchObject({ ok: true, width: 3840, height: 2160, frames: 240 });
    expect(240 * 3840 * 2160).toBeGreaterThan(MAX_VIDEO_DECODED_PIXELS);
    const outcome = await checkSelfieVideo({ path: file, filename: '4k60.mp4', size: 0, format: 'mp4' });
    expect(outcome).toMatchObject({
      code: 'voiceVideo.conversionFailed',
      message: expect.stringMatching(/240 frames of 3840×2160/),
    });
    // Not "not checked": refused, and no frame was read for it.
    expect(outcome.facts.notChecked).toBeUndefined();
  });
});

describe('FFmpeg in turns by verification', () => {
  it.each(backends)(
    '%s: a verification with many videos waits its turn behind another one',
    async (_label, ffmpeg) => {
      await withBackend(ffmpeg, async () => {
        const finished: string[] = [];
        const read = (owner: string, name: string) =>
          videoFrames(samplePath('liveness.mp4'), 3, undefined, { owner }).then(() => finished.push(name));
        // A's three videos are asked for first, B's one after them: B is read second, not fourth.
        const all = [read('A', 'A1'), read('A', 'A2'), read('A', 'A3')];
        all.push(read('B', 'B1'));
        await Promise.all(all);
        expect(finished).toEqual(['A1', 'B1', 'A2', 'A3']);
      });
    },
  );

  it('a check given up while waiting leaves the line without reading its video', async () => {
    const controller = new AbortController();
    const first = videoFrames(samplePath('liveness.mp4'), 3, undefined, { owner: 'A' });
    const given = videoFrames(samplePath('liveness.mp4'), 3, undefined, {
      owner: 'B',
      signal: controller.signal,
    });
    controller.abort();
    await expect(given).rejects.toThrow(/given up before its video was read/);
    expect((await first).length).toBe(3);
  });
});

describe('FFmpeg from npm, with no system FFmpeg', () => {
  let server: Server;
  let requests = 0;
  let origin = '';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.end('#EXTM3U\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each(backends)('%s reads 3 frames of every committed liveness sample', async (_label, ffmpeg) => {
    await withBackend(ffmpeg, async () => {
      for (const clip of ['liveness.mp4', 'liveness.webm', 'liveness.mov', 'liveness-fragmented.mp4']) {
        const frames = await videoFrames(samplePath(clip), 3);
        expect(frames.length, clip).toBe(3);
        expect(Math.max(frames[0].width, frames[0].height), clip).toBeLessThanOrEqual(640);
      }
    });
  });

  /** An HLS playlist whose segments are on a local server: a reader that follows it fetches them. */
  const playlist = () =>
    `#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n${origin}/segment.ts\n#EXTINF:1,\nfile:///etc/passwd\n#EXT-X-ENDLIST\n`;

  it.each(backends)('%s never follows an HLS playlist disguised as a video', async (_label, ffmpeg) => {
    await withBackend(ffmpeg, async () => {
      // A plain playlist named .mp4: not a container at all, FFmpeg is not even started.
      const plain = store('playlist.mp4', Buffer.from(playlist()), 'mp4');
      await expect(runFfmpeg(plain.path, ['-f', 'null'], 1024)).rejects.toBeInstanceOf(FrameReadError);
      expect((await checkSelfieVideo(plain)).code).toBe('voiceVideo.conversionFailed');
      // An MP4 file-type box, then the playlist: FFmpeg reads it as MP4 (forced), never as HLS.
      const ftyp = Buffer.from('00000018667479706973736f0000020069736f6d69736f32', 'hex');
      const disguised = store('disguised.mp4', Buffer.concat([ftyp, Buffer.from(playlist())]), 'mp4');
      await expect(videoFrames(disguised.path, 3)).rejects.toBeInstanceOf(FrameReadError);
      expect(requests).toBe(0);
    });
  });

  it('reports a missing FFMPEG_PATH as a reason, never as frames', async () => {
    await withBackend(path.join(dir, 'no-such-ffmpeg'), async () => {
      await expect(videoFrames(samplePath('liveness.mp4'), 3)).rejects.toThrow(/no FFmpeg at FFMPEG_PATH/);
    });
  });
});
