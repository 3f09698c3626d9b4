/**
 * Where the sandboxes keep their state: table sandbox_records (migration
 * 211_scale_shared_state.sql), one JSON row per record keyed by (provider, kind, id). PGlite or
 * PostgreSQL, like everything else, so a restart or a second process behind the balancer still
 * knows every charge, source, QR code, token and hosted-page session. Records are plain JSON (dates
 * as ISO strings).
 *
 *  - get / set / has / values: read and write one record (set is an upsert, last write wins);
 *  - insert(id, value): adds the record unless the id exists (false then), atomically;
 *  - update(id, fn): reads the record under a row lock (SELECT … FOR UPDATE), lets fn change it and
 *    writes it back in the same transaction, so of two processes changing one charge at once the
 *    second sees the first's result (a charge is completed, and its webhook sent, once).
 *    fn must not query the database itself (PGlite has one connection).
 */
import type { Db, Queryable } from '../../db/index';

export interface SandboxTable<T> {
  get(id: string): Promise<T | undefined>;
  has(id: string): Promise<boolean>;
  set(id: string, value: T): Promise<void>;
  insert(id: string, value: T): Promise<boolean>;
  /** All records of this kind, oldest first (sandbox control pages). */
  values(): Promise<T[]>;
  update<R>(id: string, fn: (value: T) => R): Promise<{ value: T; result: R } | undefined>;
}

export type SandboxTables = <T>(provider: string, kind: string) => SandboxTable<T>;

async function upsert(q: Queryable, provider: string, kind: string, id: string, value: unknown): Promise<void> {
  await q.query(
    `INSERT INTO sandbox_records (provider, kind, id, data) VALUES ($1, $2, $3, $4::jsonb)
     ON CONFLICT (provider, kind, id) DO UPDATE SET data = EXCLUDED.data, updated_at = now()`,
    [provider, kind, id, JSON.stringify(value)],
  );
}

export function sandboxTables(db: Db): SandboxTables {
  return <T>(provider: string, kind: string): SandboxTable<T> => ({
    async get(id) {
      const r = await db.query<{ data: T }>('SELECT data FROM sandbox_records WHERE provider = $1 AND kind = $2 AND id = $3', [provider, kind, id]);
      return r.rows[0]?.data;
    },
    async has(id) {
      const r = await db.query('SELECT 1 FROM sandbox_records WHERE provider = $1 AND kind = $2 AND id = $3', [provider, kind, id]);
      return r.rows.length > 0;
    },
    async set(id, value) {
      await upsert(db, provider, kind, id, value);
    },
    async insert(id, value) {
      const r = await db.query(
        'INSERT INTO sandbox_records (provider, kind, id, data) VALUES ($1, $2, $3, $4::jsonb) ON CONFLICT (provider, kind, id) DO NOTHING RETURNING id',
        [provider, kind, id, JSON.stringify(value)],
      );
      return r.rows.length > 0;
    },
    async values() {
      const r = await db.query<{ data: T }>('SELECT data FROM sandbox_records WHERE provider = $1 AND kind = $2 ORDER BY created_at, id', [provider, kind]);
      return r.rows.map((row) => row.data);
    },
    async update(id, fn) {
      return db.tx(async (q) => {
        const r = await q.query<{ data: T }>('SELECT data FROM sandbox_records WHERE provider = $1 AND kind = $2 AND id = $3 FOR UPDATE', [provider, kind, id]);
        const value = r.rows[0]?.data;
        if (value === undefined) return undefined;
        const result = fn(value);
        await upsert(q, provider, kind, id, value);
        return { value, result };
      });
    },
  });
}
