/**
 * Member and back-office logins use loginGate (below): per-account failures ask for a challenge
 * (a proof-of-work, server/auth/challenge.ts) instead of locking the account.
 *
 * Login limits, stored in the database so they hold across every server
 * process on one PostgreSQL. Failures are counted per account (the name tried), per address
 * (the client IP, from a trusted proxy only) and per account + address, each in a fixed window:
 *   - account + address: PAIR_MAX failures lock that address out of that account;
 *   - account: ACCOUNT_MAX failures from anywhere lock the account for every address that has not
 *     logged in to it successfully before — so someone else's failures do not lock the owner out
 *     on a device they used before;
 *   - address: ADDRESS_MAX failures (many accounts tried) lock the address, again except for
 *     account + address pairs that logged in before.
 * A success clears the pair's failures and marks the pair as known (for KNOWN_DAYS).
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/index';

export interface LoginLimits {
  windowMs: number;
  pairMax: number;
  accountMax: number;
  addressMax: number;
  knownDays: number;
}

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60_000, pairMax: 10, accountMax: 50, addressMax: 100, knownDays: 90 };

export interface Attempt {
  /** Which login (e.g. 'student', 'nonmember', 'admin') — accounts of different kinds never mix. */
  realm: string;
  account: string;
  address: string;
}

const h = (...parts: string[]) => createHash('sha256').update(parts.join('\u0000')).digest('base64url');

function keys(a: Attempt): { account: string; address: string; pair: string } {
  const account = a.account.trim().toLowerCase().slice(0, 320);
  return { account: h(a.realm, account), address: h(a.realm, a.address), pair: h(a.realm, account, a.address) };
}

/** The failures counted for an attempt in the window, read once: what loginRefusedFor and loginGate decide from. */
async function failuresOf(q: Queryable, a: Attempt, now: Date, limits: LoginLimits) {
  const k = keys(a);
  const since = new Date(now.getTime() - limits.windowMs);
  const knownSince = new Date(now.getTime() - limits.knownDays * 86_400_000);
  const r = await q.query<{ scope: string; failures: number; window_start: Date }>(
    `SELECT scope, failures, window_start FROM login_failures
      WHERE (scope = 'pair' AND key = $1) OR (scope = 'account' AND key = $2) OR (scope = 'address' AND key = $3) OR (scope = 'known' AND key = $1)`,
    [k.pair, k.account, k.address],
  );
  const row = (scope: string) => r.rows.find((x) => x.scope === scope);
  /** The scope's row while its window runs. */
  const live = (scope: string) => {
    const x = row(scope);
    return x && new Date(x.window_start) > since ? x : undefined;
  };
  /** Seconds until the scope's window ends when it reached `max` failures, else 0. */
  const waitFor = (scope: string, max: number): number => {
    const x = live(scope);
    if (!x || x.failures < max) return 0;
    return Math.max(1, Math.ceil((new Date(x.window_start).getTime() + limits.windowMs - now.getTime()) / 1000));
  };
  /** This account logged in from this address before (within knownDays). */
  const known = !!row('known') && new Date(row('known')!.window_start) > knownSince;
  return { accountKey: k.account, live, waitFor, known };
}

/** Seconds until the attempt may be made, or 0 when it may be made now. */
export async function loginRefusedFor(q: Queryable, a: Attempt, now: Date, limits: LoginLimits = DEFAULT_LOGIN_LIMITS): Promise<number> {
  const f = await failuresOf(q, a, now, limits);
  const pair = f.waitFor('pair', limits.pairMax);
  if (pair > 0) return pair;
  if (f.known) return 0;
  return Math.max(f.waitFor('account', limits.accountMax), f.waitFor('address', limits.addressMax));
}

/** Failures of one account (from anywhere) in the window after which its logins need a challenge. */
export const CHALLENGE_AFTER = 10;
/** The challenge's difficulty in leading zero bits: about 65,000 SHA-256 tries, a second or two in a browser. */
export const CHALLENGE_BITS = 16;
/** The most it grows to under a long attack (one more bit per doubling of the failures). */
export const CHALLENGE_MAX_BITS = 20;

/**
 * The challenge's work factor: `start` bits at CHALLENGE_AFTER failures, one more per doubling, at
 * most `max`. The server always runs with DEFAULT_CHALLENGE_BITS (config.ts sets it, no setting
 * changes it); a test of the rule, not of its cost, may build its app with fewer bits
 * (tests/server/login-limits.test.ts, which also checks the default is what docs/security.md says).
 */
export interface ChallengeBits {
  start: number;
  max: number;
}
export const DEFAULT_CHALLENGE_BITS: ChallengeBits = { start: CHALLENGE_BITS, max: CHALLENGE_MAX_BITS };

export type LoginGate = { kind: 'open' } | { kind: 'wait'; seconds: number } | { kind: 'challenge'; accountKey: string; difficulty: number };

/**
 * What a login attempt must do (member and back-office logins): wait when this address has failed
 * this account too often (pair) or failed too many accounts (address); otherwise, when the account
 * itself had CHALLENGE_AFTER failures from anywhere in the window, solve a challenge
 * (server/auth/challenge.ts) — never a lock, so the owner can always get in from a new address.
 * An account + address that logged in before passes without a challenge.
 */
export async function loginGate(q: Queryable, a: Attempt, now: Date, bits: ChallengeBits = DEFAULT_CHALLENGE_BITS, limits: LoginLimits = DEFAULT_LOGIN_LIMITS): Promise<LoginGate> {
  const f = await failuresOf(q, a, now, limits);
  const pair = f.waitFor('pair', limits.pairMax);
  if (pair > 0) return { kind: 'wait', seconds: pair };
  if (f.known) return { kind: 'open' };
  const address = f.waitFor('address', limits.addressMax);
  if (address > 0) return { kind: 'wait', seconds: address };
  const failures = f.live('account')?.failures ?? 0;
  if (failures < CHALLENGE_AFTER) return { kind: 'open' };
  const difficulty = Math.min(bits.max, bits.start + Math.floor(Math.log2(failures / CHALLENGE_AFTER)));
  return { kind: 'challenge', accountKey: f.accountKey, difficulty };
}

export async function recordLoginFailure(q: Queryable, a: Attempt, now: Date, limits: LoginLimits = DEFAULT_LOGIN_LIMITS): Promise<void> {
  const k = keys(a);
  const since = new Date(now.getTime() - limits.windowMs);
  for (const [scope, key] of [['pair', k.pair], ['account', k.account], ['address', k.address]] as const) {
    await q.query(
      `INSERT INTO login_failures (scope, key, failures, window_start) VALUES ($1, $2, 1, $3)
       ON CONFLICT (scope, key) DO UPDATE SET
         failures = CASE WHEN login_failures.window_start <= $4 THEN 1 ELSE login_failures.failures + 1 END,
         window_start = CASE WHEN login_failures.window_start <= $4 THEN $3 ELSE login_failures.window_start END`,
      [scope, key, now, since],
    );
  }
}

export async function recordLoginSuccess(q: Queryable, a: Attempt, now: Date): Promise<void> {
  const k = keys(a);
  await q.query(`DELETE FROM login_failures WHERE scope = 'pair' AND key = $1`, [k.pair]);
  await q.query(
    `INSERT INTO login_failures (scope, key, failures, window_start) VALUES ('known', $1, 0, $2)
     ON CONFLICT (scope, key) DO UPDATE SET window_start = $2`,
    [k.pair, now],
  );
}

/** Rows whose window ended long ago (housekeeping). */
export async function purgeLoginFailures(q: Queryable, now: Date, limits: LoginLimits = DEFAULT_LOGIN_LIMITS): Promise<void> {
  await q.query(`DELETE FROM login_failures WHERE (scope <> 'known' AND window_start < $1) OR (scope = 'known' AND window_start < $2)`, [
    new Date(now.getTime() - limits.windowMs),
    new Date(now.getTime() - limits.knownDays * 86_400_000),
  ]);
}
