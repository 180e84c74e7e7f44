import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Failures that say the disk (or the database on it) cannot take writes, not that a request was wrong. */
const storageErrorCodes = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'SQLITE_FULL', 'SQLITE_READONLY']);

export function isStorageError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && storageErrorCodes.has(e.code)) return true;
  }
  return false;
}

/** What a probe writes: about what an upload needs to get going, so that "ok" means uploads work. */
const PROBE_BYTES = 1024 * 1024;

/** Files on disk under DATA_DIR: `tmp/` for uploads in flight, `media/` for accepted inputs. */
export class MediaStore {
  readonly tmpDir: string;
  readonly mediaDir: string;
  /** Set by a write that met a full or read-only disk; cleared by the next write that works. */
  failing = false;

  constructor(dataDir: string) {
    this.tmpDir = path.join(dataDir, 'tmp');
    this.mediaDir = path.join(dataDir, 'media');
    fs.mkdirSync(this.tmpDir, { recursive: true });
    fs.mkdirSync(this.mediaDir, { recursive: true });
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

  pathOf(mediaId: string) {
    if (!/^[0-9a-f]{32}$/.test(mediaId)) return null;
    return path.join(this.mediaDir, mediaId);
  }

  /**
   * The first half of storing a file: it is moved beside the media as `<id>.pending` (never
   * served), the caller records `<id>` in its transaction, then `publish`es it. A process that
   * dies in between leaves a pending file that `recover` completes (the record exists) or
   * removes (it does not): a file never outlives its record, nor a committed record its file.
   */
  async stage(tmpPath: string): Promise<string> {
    const id = MediaStore.newId();
    await fs.promises.rename(tmpPath, this.pendingPath(id));
    return id;
  }

  async publish(mediaId: string) {
    await fs.promises.rename(this.pendingPath(mediaId), path.join(this.mediaDir, mediaId));
  }

  async discardStaged(mediaId: string) {
    await fs.promises.rm(this.pendingPath(mediaId), { force: true });
  }

  private pendingPath(mediaId: string) {
    return path.join(this.mediaDir, `${mediaId}.pending`);
  }

  /**
   * At start: pending files are published when their record was committed and removed when it
   * was not; any other file without a record (an orphan of an older version, or of a replaced
   * input whose removal was cut short) is removed. Returns what it did, for the log.
   */
  async recover(hasRecord: (mediaId: string) => Promise<boolean>) {
    const done = { published: 0, removed: 0 };
    for (const name of await fs.promises.readdir(this.mediaDir)) {
      const file = path.join(this.mediaDir, name);
      const pending = /^([0-9a-f]{32})\.pending$/.exec(name);
      if (pending && (await hasRecord(pending[1]))) {
        await fs.promises.rename(file, path.join(this.mediaDir, pending[1]));
        done.published++;
      } else if (pending || !/^[0-9a-f]{32}$/.test(name) || !(await hasRecord(name))) {
        await fs.promises.rm(file, { force: true, recursive: true });
        done.removed++;
      }
    }
    return done;
  }

  async remove(mediaId: string) {
    const file = this.pathOf(mediaId);
    if (file) await fs.promises.rm(file, { force: true });
  }
}
