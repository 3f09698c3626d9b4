/**
 * Login challenges: a proof-of-work the browser solves, asked of logins to an account that many
 * failures hit recently (server/auth/limits.ts loginGate), instead of locking the account. No
 * third-party service: the server gives a random challenge and a difficulty d; the client finds a
 * nonce such that SHA-256(challenge + ":" + nonce) starts with d zero bits (src/api/pow.ts, with
 * WebCrypto) and sends both with the login. A challenge is stored as its SHA-256 for its account,
 * lives CHALLENGE_MINUTES and is used once (a solved challenge buys one attempt).
 */
import { hash, randomBytes } from 'node:crypto';
import type { Queryable } from '../db/index';
import { challengeText, leadingZeroBits } from '../../domain/challenge';

export const CHALLENGE_MINUTES = 5;

// One-shot hashing (crypto.hash): about three times the tries per second of createHash().update().digest()
// for these short texts, which is what a solver's loop spends its time on.
const sha = (s: string) => hash('sha256', s, 'buffer');

/** True when the nonce solves the challenge at the difficulty. */
export function solves(challenge: string, nonce: string, difficulty: number): boolean {
  return leadingZeroBits(sha(challengeText(challenge, nonce))) >= difficulty;
}

/** Finds a nonce (tests and the command line; the browser has its own, src/api/pow.ts). */
export function solve(challenge: string, difficulty: number): string {
  for (let n = 0; ; n++) if (solves(challenge, n.toString(36), difficulty)) return n.toString(36);
}

export async function issueChallenge(q: Queryable, realm: string, accountKey: string, difficulty: number, now: Date): Promise<{ challenge: string; difficulty: number }> {
  const challenge = randomBytes(24).toString('base64url');
  await q.query('DELETE FROM login_challenges WHERE expires_at <= $1', [now]);
  await q.query('INSERT INTO login_challenges (id_hash, realm, account_key, difficulty, expires_at) VALUES ($1, $2, $3, $4, $5)', [
    sha(challenge).toString('base64url'),
    realm,
    accountKey,
    difficulty,
    new Date(now.getTime() + CHALLENGE_MINUTES * 60_000),
  ]);
  return { challenge, difficulty };
}

/**
 * Uses up the challenge (whatever the nonce) and tells whether the nonce solves it at the
 * difficulty it was given with, for this account, before it expired.
 */
export async function redeemChallenge(q: Queryable, realm: string, accountKey: string, challenge: unknown, nonce: unknown, now: Date): Promise<boolean> {
  if (typeof challenge !== 'string' || typeof nonce !== 'string' || challenge.length > 200 || nonce.length > 64) return false;
  const r = await q.query<{ difficulty: number; account_key: string; realm: string }>(
    'DELETE FROM login_challenges WHERE id_hash = $1 AND expires_at > $2 RETURNING difficulty, account_key, realm',
    [sha(challenge).toString('base64url'), now],
  );
  const row = r.rows[0];
  if (!row || row.realm !== realm || row.account_key !== accountKey) return false;
  return solves(challenge, nonce, row.difficulty);
}
