/**
 * The browser's side of a login challenge (server/auth/challenge.ts): finds a nonce such that
 * SHA-256(challenge + ":" + nonce) starts with `difficulty` zero bits, with WebCrypto — no
 * third-party service. Digests run in batches so the page stays responsive; an abort stops it.
 */
import { fromPromise } from 'xstate';
import { challengeText, leadingZeroBits } from '../../domain/challenge';

const BATCH = 256;

export async function solveChallenge(challenge: string, difficulty: number, signal?: AbortSignal): Promise<string> {
  const enc = new TextEncoder();
  for (let start = 0; ; start += BATCH) {
    if (signal?.aborted) throw new Error('aborted');
    const nonces = Array.from({ length: BATCH }, (_, i) => (start + i).toString(36));
    const digests = await Promise.all(nonces.map((n) => crypto.subtle.digest('SHA-256', enc.encode(challengeText(challenge, n)))));
    const hit = digests.findIndex((d) => leadingZeroBits(new Uint8Array(d)) >= difficulty);
    if (hit >= 0) return nonces[hit]!;
  }
}

/** The session machine's solveChallenge actor. */
export const solveChallengeActor = fromPromise<{ nonce: string }, { challenge: string; difficulty: number }>(async ({ input, signal }) => ({
  nonce: await solveChallenge(input.challenge, input.difficulty, signal),
}));
