import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { ServiceTables } from './rows';
import type { StoredMedia } from './media-store';

/** Bytes per row: a 50 MB video is 50 rows, and at most one of them is in memory at a time. */
export const CHUNK_BYTES = 1024 * 1024;

/** Chunks of no record, older than this, are the leftovers of a process that died while staging. */
const ORPHAN_AGE_MS = 60 * 60 * 1000;

/**
 * Media as rows of `media_chunks` in the service's database (with DATABASE_URL: PostgreSQL's
 * `service_media_chunks`), so that every instance serves and checks every file. A file is
 * streamed in and out one chunk at a time. Its chunks are written before the record of it commits
 * (staged), are served only once that record exists, and go in the transaction that deletes the
 * record (`VerificationRepo.delete`, `deleteMedia`).
 */
export class MediaChunks implements StoredMedia {
  constructor(
    private readonly db: Kysely<ServiceTables>,
    /** A path for a temporary file on this host. */
    private readonly tmpPath: () => string,
  ) {}

  async stage(tmpPath: string, mediaId: string) {
    const createdAt = Date.now();
    try {
      let n = 0;
      for await (const data of fs.createReadStream(tmpPath, { highWaterMark: CHUNK_BYTES })) {
        await this.db
          .insertInto('media_chunks')
          .values({ media_id: mediaId, n: n++, data: data as Buffer, created_at: createdAt })
          .execute();
      }
    } catch (error) {
      await this.remove(mediaId).catch(() => undefined);
      throw error;
    }
    await fs.promises.rm(tmpPath, { force: true });
  }

  /** Nothing to do: the committed record is what makes the chunks a medium. */
  async publish() {}

  async discardStaged(mediaId: string) {
    await this.remove(mediaId);
  }

  async remove(mediaId: string) {
    await this.db.deleteFrom('media_chunks').where('media_id', '=', mediaId).execute();
  }

  private async chunk(mediaId: string, n: number) {
    const row = await this.db
      .selectFrom('media_chunks')
      .select('data')
      .where('media_id', '=', mediaId)
      .where('n', '=', n)
      .executeTakeFirst();
    return row?.data;
  }

  async read(mediaId: string): Promise<Readable | null> {
    const first = await this.chunk(mediaId, 0);
    if (!first) return null;
    const next = (n: number) => this.chunk(mediaId, n);
    return Readable.from(
      (async function* () {
        let data: Buffer | undefined = first;
        for (let n = 1; data; n++) {
          yield data;
          data = await next(n);
        }
      })(),
      { objectMode: false },
    );
  }

  /** The checks read files: the chunks are copied to a temporary file for `fn`, removed after. */
  async withFile<T>(mediaId: string, fn: (file: string) => Promise<T>): Promise<T | null> {
    const stream = await this.read(mediaId);
    if (!stream) return null;
    const file = this.tmpPath();
    try {
      await pipeline(stream, fs.createWriteStream(file, { mode: 0o600 }));
      return await fn(file);
    } finally {
      await fs.promises.rm(file, { force: true });
    }
  }

  /**
   * Chunks without a record, old enough not to belong to an upload under way on another
   * instance: a process died between staging them and committing their record.
   */
  async recover() {
    const result = await this.db
      .deleteFrom('media_chunks')
      .where('created_at', '<', Date.now() - ORPHAN_AGE_MS)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('media').select('id').whereRef('media.id', '=', 'media_chunks.media_id'))),
      )
      .executeTakeFirst();
    return { published: 0, removed: Number(result.numDeletedRows) };
  }
}
