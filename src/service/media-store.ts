import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Files on disk under DATA_DIR: `tmp/` for uploads in flight, `media/` for accepted inputs. */
export class MediaStore {
  readonly tmpDir: string;
  readonly mediaDir: string;

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

  async adopt(tmpPath: string): Promise<string> {
    const id = MediaStore.newId();
    await fs.promises.rename(tmpPath, path.join(this.mediaDir, id));
    return id;
  }

  async remove(mediaId: string) {
    const file = this.pathOf(mediaId);
    if (file) await fs.promises.rm(file, { force: true });
  }
}
