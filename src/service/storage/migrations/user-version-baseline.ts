import type Database from 'better-sqlite3';

/**
 * Files made before the numbered migrations kept their schema version in PRAGMA user_version
 * (1 to 3). The steps from 1 to 3 are kept here as they shipped; version 3 is the schema of
 * `001-initial.ts`, so such a file is brought to 3 and then counts as migrated to 1.
 */
const toUserVersion3: string[] = [
  // 1 → 2. A person (identity) may be verified again: a verification's inputs and media belong to the
  // verification, not to the identity; the user agent of the creation is kept for the fingerprint.
  `
  CREATE TABLE verifications_v2 (
    id TEXT PRIMARY KEY,
    identity TEXT NOT NULL,
    flow_id TEXT NOT NULL,
    metadata TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    expired INTEGER NOT NULL DEFAULT 0,
    skip_wait INTEGER NOT NULL DEFAULT 0,
    wait_until INTEGER,
    expires_at INTEGER,
    started_at INTEGER,
    inputs_completed_at INTEGER,
    completed_at INTEGER,
    ip TEXT,
    ua TEXT,
    result TEXT,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  INSERT INTO verifications_v2 (id, identity, flow_id, metadata, status, expired, skip_wait, wait_until,
    expires_at, started_at, inputs_completed_at, completed_at, ip, result, created_at, updated_at)
  SELECT id, identity, flow_id, metadata, status, expired, skip_wait, wait_until, expires_at, started_at,
    inputs_completed_at, completed_at, ip, result, created_at, updated_at FROM verifications;
  DROP TABLE verifications;
  ALTER TABLE verifications_v2 RENAME TO verifications;
  CREATE INDEX verifications_identity ON verifications (identity, created_at);
  CREATE TABLE inputs_v2 (
    verification_id TEXT NOT NULL,
    slot TEXT NOT NULL,
    position INTEGER NOT NULL,
    input_type TEXT NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    descriptor TEXT NOT NULL,
    media_id TEXT,
    facts TEXT,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (verification_id, slot)
  );
  INSERT INTO inputs_v2 SELECT v.id, i.slot, i.position, i.input_type, i.status, i.error_code, i.descriptor,
    i.media_id, i.facts, i.updated_at FROM inputs i JOIN verifications v ON v.identity = i.identity;
  DROP TABLE inputs;
  ALTER TABLE inputs_v2 RENAME TO inputs;
  ALTER TABLE media ADD COLUMN verification_id TEXT;
  UPDATE media SET verification_id = (SELECT v.id FROM verifications v WHERE v.identity = media.identity);
  CREATE INDEX media_verification ON media (verification_id);
  `,
  // 2 → 3. The active liveness challenge the service chose for the verification (JSON; null: none).
  `ALTER TABLE verifications ADD COLUMN challenge TEXT;`,
];

/** The numbered version a file already is at: 1 for a file of user_version 1 to 3 (upgraded here), else 0. */
export function userVersionBaseline(raw: Database.Database): number {
  const version = raw.pragma('user_version', { simple: true }) as number;
  if (version === 0) return 0;
  for (let v = version; v < 3; v++) raw.exec(toUserVersion3[v - 1]);
  raw.pragma('user_version = 3');
  return 1;
}
