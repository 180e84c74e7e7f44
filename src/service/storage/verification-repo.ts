import type Database from 'better-sqlite3';
import { statementCache } from '@/server-shared/statement-cache';
import type { FileFormat } from '@/shared/file-format';
import type { InputRow, VerificationRow } from './rows';
import type { Db } from './db';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The verifications, inputs and media tables: every read and write of them goes through here,
 * each statement prepared once. Callers group writes with the connection's transaction
 * (`ctx.db.transaction`), so that a change and its webhook event (the outbox) commit together.
 */
export class VerificationRepo {
  private readonly sql: (source: string) => Database.Statement;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  get(id: string) {
    return this.sql('SELECT * FROM verifications WHERE id = ?').get(id) as VerificationRow | undefined;
  }

  /** The identity's newest verification: send-input by identity goes there (a re-verification is newer). */
  byIdentity(identity: string) {
    return this.sql(
      'SELECT * FROM verifications WHERE identity = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    ).get(identity) as VerificationRow | undefined;
  }

  inputs(verificationId: string) {
    return this.sql('SELECT * FROM inputs WHERE verification_id = ? ORDER BY position').all(
      verificationId,
    ) as InputRow[];
  }

  insert(
    v: Pick<
      VerificationRow,
      'id' | 'identity' | 'flow_id' | 'metadata' | 'expires_at' | 'ip' | 'ua' | 'challenge' | 'created_at'
    >,
  ) {
    this.sql(
      `INSERT INTO verifications (id, identity, flow_id, metadata, status, expires_at, ip, ua, challenge, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?)`,
    ).run(
      v.id,
      v.identity,
      v.flow_id,
      v.metadata,
      v.expires_at,
      v.ip,
      v.ua,
      v.challenge,
      v.created_at,
      v.created_at,
    );
  }

  /** A change of the verification's own fields, which moves its `updated_at` (retention counts from it). */
  update(id: string, fields: Partial<VerificationRow>) {
    const entries = Object.entries({ ...fields, updated_at: Date.now() });
    this.sql(`UPDATE verifications SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
      ...entries.map(([, value]) => value),
      id,
    );
  }

  /** The address send-input came from; not a change of the verification's state. */
  setIp(id: string, ip: string) {
    this.sql('UPDATE verifications SET ip = ? WHERE id = ?').run(ip, id);
  }

  /** Pending or running and not expired: what a start resumes. */
  unfinished() {
    return this.sql(
      "SELECT * FROM verifications WHERE status IN ('pending', 'running') AND expired = 0",
    ).all() as VerificationRow[];
  }

  /** Untouched for `retentionDays` (an expired one for `expiredDays`); 0 days: never. */
  dueForErasure(retentionDays: number, expiredDays: number, now: number) {
    return this.sql(
      `SELECT * FROM verifications
       WHERE (? > 0 AND updated_at < ?) OR (expired = 1 AND ? > 0 AND updated_at < ?)`,
    ).all(
      retentionDays,
      now - retentionDays * DAY_MS,
      expiredDays,
      now - expiredDays * DAY_MS,
    ) as VerificationRow[];
  }

  /** The rows of a verification, its inputs and its media records (not the files). */
  delete(id: string) {
    this.sql('DELETE FROM inputs WHERE verification_id = ?').run(id);
    this.sql('DELETE FROM media WHERE verification_id = ?').run(id);
    this.sql('DELETE FROM verifications WHERE id = ?').run(id);
  }

  /** The media file stored for an input slot, if any (replaced by a retake). */
  inputMediaId(verificationId: string, slot: string) {
    const row = this.sql('SELECT media_id FROM inputs WHERE verification_id = ? AND slot = ?').get(
      verificationId,
      slot,
    ) as { media_id: string | null } | undefined;
    return row?.media_id ?? null;
  }

  upsertInput(row: InputRow) {
    this.sql(
      `INSERT INTO inputs (verification_id, slot, position, input_type, status, error_code, descriptor, media_id, facts, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (verification_id, slot) DO UPDATE SET position = excluded.position, input_type = excluded.input_type,
         status = excluded.status, error_code = excluded.error_code, descriptor = excluded.descriptor,
         media_id = excluded.media_id, facts = excluded.facts, updated_at = excluded.updated_at`,
    ).run(
      row.verification_id,
      row.slot,
      row.position,
      row.input_type,
      row.status,
      row.error_code,
      row.descriptor,
      row.media_id,
      row.facts,
      row.updated_at,
    );
  }

  setInputFacts(verificationId: string, slot: string, facts: string) {
    this.sql('UPDATE inputs SET facts = ? WHERE verification_id = ? AND slot = ?').run(
      facts,
      verificationId,
      slot,
    );
  }

  mediaIdsOf(verificationId: string) {
    return (
      this.sql('SELECT id FROM media WHERE verification_id = ?').all(verificationId) as { id: string }[]
    ).map((m) => m.id);
  }

  media(id: string) {
    return this.sql('SELECT format, size FROM media WHERE id = ?').get(id) as
      { format: FileFormat; size: number } | undefined;
  }

  hasMedia(id: string) {
    return this.sql('SELECT 1 FROM media WHERE id = ?').get(id) !== undefined;
  }

  insertMedia(m: {
    id: string;
    identity: string;
    verificationId: string;
    format: FileFormat;
    size: number;
    createdAt: number;
  }) {
    this.sql(
      'INSERT INTO media (id, identity, verification_id, format, size, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    ).run(m.id, m.identity, m.verificationId, m.format, m.size, m.createdAt);
  }

  deleteMedia(id: string) {
    this.sql('DELETE FROM media WHERE id = ?').run(id);
  }
}
