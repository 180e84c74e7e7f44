import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MediaStore } from './media-store';
import { createVerification, faceImage, sendInput, startService } from '../testing/harness';
import { tempDataDir } from '../testing/temp-dirs';

const mediaFiles = (dataDir: string) => fs.readdirSync(path.join(dataDir, 'media')).sort();
const mediaRows = (dataDir: string) => {
  const db = new Database(path.join(dataDir, 'service.sqlite'), { readonly: true });
  try {
    return (db.prepare('SELECT id FROM media ORDER BY id').all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
};

describe('media files and their records', () => {
  it('a send-input leaves exactly one file per record, none pending', async () => {
    const dataDir = tempDataDir();
    const svc = await startService({}, dataDir);
    try {
      const v = await createVerification(svc, 'ar-national-id');
      const front = {
        inputType: 'document-photo',
        group: 0,
        data: { type: 'national-id', country: 'AR', page: 'front', filename: 'front.jpg' },
      };
      const sent = await sendInput(
        svc,
        v.identity,
        [front],
        // A card front with a portrait: the service looks for the holder's face on it.
        [{ field: 'document', name: 'front.jpg', bytes: await faceImage(800, 640) }],
      );
      expect(sent.status).toBe(201);
      expect(mediaFiles(dataDir)).toEqual(mediaRows(dataDir));
      expect(mediaRows(dataDir)).toHaveLength(1);
    } finally {
      await svc.close();
    }
  });

  it('at start, completes files whose record committed and removes the rest (kill -9 between the two)', async () => {
    const dataDir = tempDataDir();
    const first = await startService({}, dataDir);
    const v = await createVerification(first, 'ar-national-id');
    await first.close();
    const committed = MediaStore.newId();
    const uncommitted = MediaStore.newId();
    const orphan = MediaStore.newId();
    const db = new Database(path.join(dataDir, 'service.sqlite'));
    db.prepare(
      'INSERT INTO media (id, identity, verification_id, format, size, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(committed, v.identity, v.id, 'jpeg', 4, Date.now());
    db.close();
    const media = path.join(dataDir, 'media');
    // What a process killed between the move and the commit, or after the commit, leaves behind.
    fs.writeFileSync(path.join(media, `${committed}.pending`), 'data');
    fs.writeFileSync(path.join(media, `${uncommitted}.pending`), 'data');
    // And a file with no record at all (the layout of older versions: moved before the commit).
    fs.writeFileSync(path.join(media, orphan), 'data');
    const second = await startService({}, dataDir);
    try {
      expect(mediaFiles(dataDir)).toEqual([committed]);
      expect(mediaRows(dataDir)).toEqual([committed]);
      const served = await fetch(`${second.url}/media/${committed}`, { headers: second.auth });
      expect(served.status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
