import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { dropSchema, freshSchemaUrl } from '../../../e2e/fixtures/test-database';
import { serviceDbs } from '../testing/service-dbs';
import { tempDataDir } from '../testing/temp-dirs';
import { CHUNK_BYTES, MediaChunks } from './media-chunks';
import { MediaStore } from './media-store';

const database = freshSchemaUrl('idv_media_chunks');
afterAll(() => dropSchema(database.schema));

describe.each(serviceDbs(database.url))('media as chunks in the database ($name)', ({ open }) => {
  it('streams a file in and out in chunks, gives checks a file of it, and removes it', async () => {
    const db = await open();
    const dir = tempDataDir();
    const tmp = () => path.join(dir, randomBytes(8).toString('hex'));
    const chunks = new MediaChunks(db.db, tmp);
    try {
      const bytes = randomBytes(Math.floor(CHUNK_BYTES * 2.5));
      const upload = tmp();
      fs.writeFileSync(upload, bytes);
      const id = MediaStore.newId();
      await chunks.stage(upload, id);
      // The upload is taken, as a file store takes it by renaming it.
      expect(fs.existsSync(upload)).toBe(false);
      const rows = await db.db.selectFrom('media_chunks').select('n').where('media_id', '=', id).execute();
      expect(rows.map((r) => r.n).sort()).toEqual([0, 1, 2]);

      expect((await buffer((await chunks.read(id))!)).equals(bytes)).toBe(true);
      let seen = '';
      const size = await chunks.withFile(id, async (file) => {
        seen = file;
        return fs.statSync(file).size;
      });
      expect(size).toBe(bytes.length);
      expect(fs.existsSync(seen)).toBe(false);

      await chunks.remove(id);
      expect(await chunks.read(id)).toBeNull();
      expect(await chunks.withFile(id, async () => 'ran')).toBeNull();
    } finally {
      await db.close();
    }
  });

  it('at start, removes old chunks that no record names, and only those', async () => {
    const db = await open();
    const chunks = new MediaChunks(db.db, () => path.join(tempDataDir(), 'x'));
    try {
      const chunk = (mediaId: string, createdAt: number) =>
        db.db
          .insertInto('media_chunks')
          .values({ media_id: mediaId, n: 0, data: Buffer.from('x'), created_at: createdAt })
          .execute();
      const [recorded, orphan, staging] = [MediaStore.newId(), MediaStore.newId(), MediaStore.newId()];
      const old = Date.now() - 2 * 60 * 60 * 1000;
      await db.db
        .insertInto('media')
        .values({
          id: recorded,
          identity: 'i',
          verification_id: 'v',
          format: 'jpeg',
          size: 1,
          created_at: old,
        })
        .execute();
      await chunk(recorded, old);
      await chunk(orphan, old);
      // Another instance's upload, being staged right now: its record is not committed yet.
      await chunk(staging, Date.now());
      await chunks.recover();
      expect(await chunks.read(recorded)).not.toBeNull();
      expect(await chunks.read(orphan)).toBeNull();
      expect(await chunks.read(staging)).not.toBeNull();
    } finally {
      await db.close();
    }
  });
});
