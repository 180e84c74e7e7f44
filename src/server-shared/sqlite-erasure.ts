import type Database from 'better-sqlite3';

/**
 * Erased rows must be unreadable on disk, not just unlisted: SQLite leaves a deleted row's bytes
 * in the page (or the freed page) until something overwrites them, and WAL mode keeps every page
 * version written since the last checkpoint in the -wal file. `secure_delete` zeroes what a
 * delete frees; a file that already holds free pages (written before this, or by an older
 * release) is vacuumed once at open, which rewrites it without them.
 */
export function zeroWhatIsDeleted(db: Database.Database) {
  db.pragma('secure_delete = ON');
  if ((db.pragma('freelist_count', { simple: true }) as number) > 0) db.exec('VACUUM');
}

/**
 * After an erasure: the page versions still holding the erased rows are copied over in the main
 * file (zeroed there by secure_delete) and the -wal file is cut to nothing.
 */
export function flushErasure(db: Database.Database) {
  db.pragma('wal_checkpoint(TRUNCATE)');
}
