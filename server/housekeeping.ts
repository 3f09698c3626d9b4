/** Periodic clean-up run by main.ts with the auto-cancel sweep: expired sessions, old idempotency keys. */
import type { Queryable } from './db/index';
import { purgeExpiredSessions } from './auth/sessions';
import { purgeLoginFailures } from './auth/limits';

/** Idempotency keys are remembered for 7 days (the contract promises at least 24 hours). */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 3_600_000;

export async function housekeeping(q: Queryable, now: Date): Promise<void> {
  await purgeExpiredSessions(q, now);
  await purgeLoginFailures(q, now);
  await q.query('DELETE FROM admin_sessions WHERE expires_at <= $1', [now]);
  await q.query('DELETE FROM idempotency_keys WHERE created_at < $1', [new Date(now.getTime() - IDEMPOTENCY_TTL_MS)]);
}
