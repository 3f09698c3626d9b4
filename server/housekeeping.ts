/**
 * Periodic clean-up run by main.ts with the auto-cancel sweep: expired sessions, old idempotency
 * keys, old sandbox records, visitor uploads nothing uses (server/routes/uploads.ts); then the
 * tasks plugins registered for this database with `onHousekeeping` (the payments plugin: the
 * scheduled re-read of pending attempts, server/payments/reread.ts), in the process that ran the
 * round, outside its transaction. Several processes run it: one at a time holds a
 * transaction-level advisory lock and the others skip the round (PGlite: one process, the lock is
 * always free). Every statement is an idempotent DELETE, so a skipped round loses nothing.
 */
import type { Db } from './db/index';
import { LOCKS } from './db/locks';
import { purgeExpiredSessions } from './auth/sessions';
import { purgeLoginFailures } from './auth/limits';
import { purgeVisitorUploads } from './storage/uploads';

/** Idempotency keys are remembered for 7 days (the contract promises at least 24 hours). */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 3_600_000;
/** Sandbox records (emulated charges, QR codes, sessions) are kept 30 days. */
export const SANDBOX_TTL_MS = 30 * 24 * 3_600_000;
/** The advisory lock key of the housekeeping round (server/db/locks.ts). */
export const HOUSEKEEPING_LOCK = LOCKS.housekeeping;

const tasks = new WeakMap<Db, ((now: Date) => Promise<unknown>)[]>();

/** Adds a task to every housekeeping round on this database (it runs after the clean-up, bounded by itself). */
export function onHousekeeping(db: Db, task: (now: Date) => Promise<unknown>): void {
  tasks.set(db, [...(tasks.get(db) ?? []), task]);
}

export interface HousekeepingOptions {
  /** Where uploaded files live (a purged visitor upload's file is removed); null = leave files. */
  uploadsDir?: string | null;
  /** Visitor uploads nothing uses are deleted after this many hours (0 = kept). */
  visitorUploadKeepHours?: number;
}

/** Runs one round; false when another process is running one right now. */
export async function housekeeping(db: Db, now: Date, opts: HousekeepingOptions = {}): Promise<boolean> {
  const ran = await db.tx(async (q) => {
    const got = await q.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [HOUSEKEEPING_LOCK]);
    if (!got.rows[0]?.got) return false;
    await purgeExpiredSessions(q, now);
    await purgeLoginFailures(q, now);
    await q.query('DELETE FROM admin_sessions WHERE expires_at <= $1', [now]);
    await q.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now.getTime() - IDEMPOTENCY_TTL_MS)]);
    await q.query('DELETE FROM sandbox_records WHERE updated_at < $1', [new Date(now.getTime() - SANDBOX_TTL_MS)]);
    await purgeVisitorUploads(q, now, opts.visitorUploadKeepHours ?? 0, opts.uploadsDir ?? null);
    return true;
  });
  if (ran) for (const task of tasks.get(db) ?? []) await task(now);
  return ran;
}
