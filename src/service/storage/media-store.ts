import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import { MediaChunks } from './media-chunks';
import { MediaFiles } from './media-files';
import type { ServiceTables } from './rows';

/** Failures that say the disk (or the database on it) cannot take writes, not that a request was wrong. */
// PostgreSQL's 53100 is disk_full.
const storageErrorCodes = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'SQLITE_FULL', 'SQLITE_READONLY', '53100']);

export function isStorageError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && storageErrorCodes.has(e.code)) return true;
  }
  return false;
}

/** What a probe writes: about what an upload needs to get going, so that "ok" means uploads work. */
const PROBE_BYTES = 1024 * 1024;

/** Where accepted media are kept: files under DATA_DIR/media, or chunks in the database. */
export interface StoredMedia {
  stage(tmpPath: string, mediaId: string): Promise<void>;
  publish(mediaId: string): Promise<void>;
  discardStaged(mediaId: string): Promise<void>;
  remove(mediaId: string): Promise<void>;
  /** The medium's bytes, or null when there are none. */
  read(mediaId: string): Promise<Readable | null>;
  /** `fn` on a file of the medium on this host (the checks read files); null when there is none. */
  withFile<T>(mediaId: string, fn: (file: string) => Promise<T>): Promise<T | null>;
  /** At start: what a stop between staging and committing left behind. */
  recover(hasRecord: (mediaId: string) => Promise<boolean>): Promise<{ published: number; removed: number }>;
}

/**
 * Uploads in flight (`DATA_DIR/tmp`, always on this host) and the accepted media: files under
 * `DATA_DIR/media` (`media-files.ts`), or with `chunks` rows of the database (`media-chunks.ts`),
 * which every instance reads.
 */
export class MediaStore {
  readonly tmpDir: string;
  private readonly stored: StoredMedia;
  /** Set by a write that met a full or read-only disk; cleared by the next write that works. */
  failing = false;

  constructor(dataDir: string, options: { chunks?: Kysely<ServiceTables> } = {}) {
    this.tmpDir = path.join(dataDir, 'tmp');
    fs.mkdirSync(this.tmpDir, { recursive: true });
    this.stored = options.chunks
      ? new MediaChunks(options.chunks, () => this.tmpPath())
      : new MediaFiles(path.join(dataDir, 'media'));
  }

  /** Uploads of a request that died with the process are never resumed. */
  clearTmp() {
    for (const name of fs.readdirSync(this.tmpDir)) fs.rmSync(path.join(this.tmpDir, name), { force: true });
  }

  /**
   * Health while storage is failing: nothing else writes then (uploads are refused), so a probe
   * write tells whether room came back.
   */
  async probe(): Promise<boolean> {
    if (!this.failing) return true;
    const file = this.tmpPath();
    try {
      await fs.promises.writeFile(file, Buffer.alloc(PROBE_BYTES), { flag: 'wx', mode: 0o600 });
      this.failing = false;
    } catch (error) {
      if (!isStorageError(error)) throw error;
    } finally {
      await fs.promises.rm(file, { force: true });
    }
    return !this.failing;
  }

  tmpPath() {
    return path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  /** Media ids are random and never derived from client file names. */
  static newId() {
    return randomBytes(16).toString('hex');
  }

  static isId(mediaId: string) {
    return /^[0-9a-f]{32}$/.test(mediaId);
  }

  /**
   * The first half of storing a file: it is taken from `tmpPath` and kept under a new id but
   * never served, the caller records `<id>` in its transaction, then `publish`es it. A process
   * that dies in between leaves something `recover` completes (the record exists) or removes (it
   * does not): a file never outlives its record, nor a committed record its file.
   */
  async stage(tmpPath: string): Promise<string> {
    const id = MediaStore.newId();
    await this.stored.stage(tmpPath, id);
    return id;
  }

  publish(mediaId: string) {
    return this.stored.publish(mediaId);
  }

  discardStaged(mediaId: string) {
    return this.stored.discardStaged(mediaId);
  }

  /** At start; returns what it did, for the log. */
  recover(hasRecord: (mediaId: string) => Promise<boolean>) {
    return this.stored.recover(hasRecord);
  }

  async remove(mediaId: string) {
    if (MediaStore.isId(mediaId)) await this.stored.remove(mediaId);
  }

  async read(mediaId: string) {
    return MediaStore.isId(mediaId) ? this.stored.read(mediaId) : null;
  }

  async withFile<T>(mediaId: string, fn: (file: string) => Promise<T>) {
    return MediaStore.isId(mediaId) ? this.stored.withFile(mediaId, fn) : null;
  }
}
