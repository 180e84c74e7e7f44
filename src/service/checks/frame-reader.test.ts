import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileFormat } from '@/shared/file-format';
import { MAX_VIDEO_SECONDS } from '@/shared/limits';
import { samplePath } from '../../../e2e/fixtures/samples';
import { checkSelfieVideo } from './check-input';
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
