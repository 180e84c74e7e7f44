import type { NumberedMigration } from '@/server-shared/numbered-migrations';

/**
 * Media kept in the database, a row per chunk (`media-chunks.ts`): with DATABASE_URL, so that
 * every instance serves and checks every file. On SQLite media stay files under DATA_DIR/media
 * and the table stays empty; it is there so that erasure is the same statements in both.
 */
export const mediaChunks: NumberedMigration = {
  version: 3,
  name: 'media-chunks',
  sqlite: `
  CREATE TABLE media_chunks (
    media_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    data BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (media_id, n)
  );
  `,
  postgres: `
  CREATE TABLE service_media_chunks (
    media_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    data BYTEA NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (media_id, n)
  );
  -- Photos and videos are compressed already: kept out of line with no second try at it.
  ALTER TABLE service_media_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
  CREATE INDEX service_media_chunks_created ON service_media_chunks (created_at);
  `,
};
