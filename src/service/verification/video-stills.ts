import fs from 'node:fs';
import sharp from 'sharp';
import { videoFrames } from '../checks/face-checks';
import type { FacePixels } from '@/checks/image/node/image';
import type { ServiceContext } from './context';
import type { InputRow, VerificationRow } from '../storage/rows';
import { factsOf } from './step-results';

const SPRITE_HEIGHT = 240;

/**
 * The liveness step's stills, as the hosted API gives them: a selfie frame of the video and a
 * sprite of its sampled frames side by side, stored as media of the verification. Without ffmpeg
 * (or with a video it cannot read) there are none, and their URLs are null.
 */
export async function makeVideoStills(ctx: ServiceContext, v: VerificationRow, video: InputRow) {
  const facts = factsOf(video);
  if (facts.frames || !video.media_id) return;
  let frames: FacePixels[] | null;
  try {
    frames = await ctx.media.withFile(video.media_id, (file) => videoFrames(file, facts.durationSeconds));
  } catch (error) {
    ctx.log.info({ err: error }, 'no stills taken of a liveness video');
    return;
  }
  if (!frames || frames.length === 0) return;
  const raw = ({ data, width, height, channels }: FacePixels) =>
    sharp(data, { raw: { width, height, channels } });
  const selfie = await raw(frames[Math.floor(frames.length / 2)])
    .jpeg({ quality: 85 })
    .toBuffer();
  const tiles = await Promise.all(
    frames.map((f) => raw(f).resize({ height: SPRITE_HEIGHT }).png().toBuffer({ resolveWithObject: true })),
  );
  const width = tiles.reduce((sum, t) => sum + t.info.width, 0);
  let left = 0;
  const sprite = await sharp({
    create: { width, height: SPRITE_HEIGHT, channels: 3, background: '#000' },
  })
    .composite(
      tiles.map((t) => {
        const placed = { input: t.data, left, top: 0 };
        left += t.info.width;
        return placed;
      }),
    )
    .jpeg({ quality: 80 })
    .toBuffer();
  const stored: string[] = [];
  for (const bytes of [selfie, sprite]) {
    const tmp = ctx.media.tmpPath();
    await fs.promises.writeFile(tmp, bytes);
    stored.push(await ctx.media.stage(tmp));
  }
  const [selfieMedia, spriteMedia] = stored;
  const now = Date.now();
  const still = { identity: v.identity, verificationId: v.id, format: 'jpeg', createdAt: now } as const;
  await ctx.repo.transaction(async (tx) => {
    await tx.insertMedia({ ...still, id: selfieMedia, size: selfie.length });
    await tx.insertMedia({ ...still, id: spriteMedia, size: sprite.length });
    await tx.setInputFacts(
      v.id,
      video.slot,
      JSON.stringify({ ...facts, frames: { selfieMedia, spriteMedia } }),
    );
  });
  // Published once their records are in, as every media file (media-store.ts).
  await Promise.all(stored.map((id) => ctx.media.publish(id)));
}
