import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { StoredMedia } from './media-store';

/** Media as files under `DATA_DIR/media` (the default, with SQLite): one process owns them. */
export class MediaFiles implements StoredMedia {
  constructor(private readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  private pathOf(mediaId: string) {
    return path.join(this.dir, mediaId);
  }

  private pendingPath(mediaId: string) {
    return path.join(this.dir, `${mediaId}.pending`);
  }

  /** Moved beside the media as `<id>.pending`, never served until published. */
  async stage(tmpPath: string, mediaId: string) {
    await fs.promises.rename(tmpPath, this.pendingPath(mediaId));
  }

  async publish(mediaId: string) {
    await fs.promises.rename(this.pendingPath(mediaId), this.pathOf(mediaId));
  }

  async discardStaged(mediaId: string) {
    await fs.promises.rm(this.pendingPath(mediaId), { force: true });
  }

  async remove(mediaId: string) {
    await fs.promises.rm(this.pathOf(mediaId), { force: true });
  }

  async read(mediaId: string): Promise<Readable | null> {
    const handle = await fs.promises.open(this.pathOf(mediaId)).catch(() => null);
    return handle ? handle.createReadStream() : null;
  }

  async withFile<T>(mediaId: string, fn: (file: string) => Promise<T>): Promise<T | null> {
    const file = this.pathOf(mediaId);
    return fs.existsSync(file) ? fn(file) : null;
  }

  /**
   * Pending files are published when their record was committed and removed when it was not;
   * any other file without a record (an orphan of an older version, or of a replaced input whose
   * removal was cut short) is removed.
   */
  async recover(hasRecord: (mediaId: string) => Promise<boolean>) {
    const done = { published: 0, removed: 0 };
    for (const name of await fs.promises.readdir(this.dir)) {
      const file = path.join(this.dir, name);
      const pending = /^([0-9a-f]{32})\.pending$/.exec(name);
      if (pending && (await hasRecord(pending[1]))) {
        await fs.promises.rename(file, this.pathOf(pending[1]));
        done.published++;
      } else if (pending || !/^[0-9a-f]{32}$/.test(name) || !(await hasRecord(name))) {
        await fs.promises.rm(file, { force: true, recursive: true });
        done.removed++;
      }
    }
    return done;
  }
}
