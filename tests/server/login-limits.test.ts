/**
 * TRUST_PROXY believes only the balancer's addresses; login failures are
 * counted per account, per address and per pair in the database (so every server process sees
 * them), and the owner's correct password is not locked out by someone else's failures: an
 * account with many failures asks for a proof-of-work (server/auth/challenge.ts), never a lock.
 *
 * The rules are tested with a smaller work factor (TEST_BITS: the same rule, a challenge of 8 to
 * 12 bits instead of 16 to 20): about a hundred challenges at the production bits took some 40 s
 * of SHA-256 here and proved nothing more about the rule. The first describe checks the cost
 * itself: the server's bits are what docs/security.md says, and a default app asks exactly them.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { CHALLENGE_AFTER, DEFAULT_CHALLENGE_BITS, DEFAULT_LOGIN_LIMITS, type ChallengeBits } from '../../server/auth/limits';
import { solve, solves } from '../../server/auth/challenge';
import { call, testApp, type TestApp } from './support/app';

const TEST_BITS: ChallengeBits = { start: 8, max: 12 };

const wrong = (app: FastifyInstance, username: string, xff?: string) =>
  call(app, 'login', { body: { username, password: 'wrong-password' }, headers: xff ? { 'x-forwarded-for': xff } : {} });
const right = (app: FastifyInstance, username: string, xff?: string) =>
  call(app, 'login', { body: { username, password: 'student123' }, headers: xff ? { 'x-forwarded-for': xff } : {} });

/** A login that solves the challenge when one is asked (as the browser does, src/api/pow.ts). */
async function solved(app: FastifyInstance, username: string, password: string, xff: string) {
  const headers = { 'x-forwarded-for': xff };
  const r = await call(app, 'login', { body: { username, password }, headers });
  if (r.status !== 429 || r.body.error.code !== 'CHALLENGE_REQUIRED') return r;
  const { challenge, difficulty } = r.body.error.result as { challenge: string; difficulty: number };
  return call(app, 'login', { body: { username, password, challenge, nonce: solve(challenge, difficulty) }, headers });
}

describe('the production work factor', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ config: { trustProxy: ['127.0.0.1'] } });
  });
  afterAll(async () => t.close());

  it('is 16 bits rising to 20, as docs/security.md says, and a default app asks 16 after CHALLENGE_AFTER failures', async () => {
    expect(loadConfig({}).loginChallengeBits).toEqual({ start: 16, max: 20 });
    expect(loadConfig({ NODE_ENV: 'production', LOGIN_CHALLENGE_BITS: '1' }).loginChallengeBits).toEqual(DEFAULT_CHALLENGE_BITS);
    expect(t.app.ctx.config.loginChallengeBits).toEqual(DEFAULT_CHALLENGE_BITS);
    const doc = readFileSync('docs/security.md', 'utf8').replace(/\s+/gu, ' ');
    expect(doc).toContain(`a difficulty (${DEFAULT_CHALLENGE_BITS.start} leading zero bits of SHA-256, one more per doubling of the failures, at most ${DEFAULT_CHALLENGE_BITS.max})`);
    // CHALLENGE_AFTER failures from as many addresses (each far below its own limits)…
    for (let i = 0; i < CHALLENGE_AFTER; i++) expect((await wrong(t.app, 'student', `198.51.100.${i + 1}`)).status).toBe(401);
    // …and a new address is asked the production difficulty, which the owner solves.
    const asked = await right(t.app, 'student', '192.0.2.9');
    expect(asked.status).toBe(429);
    const { challenge, difficulty } = asked.body.error.result as { challenge: string; difficulty: number };
    expect(difficulty).toBe(DEFAULT_CHALLENGE_BITS.start);
    const nonce = solve(challenge, difficulty);
    expect(solves(challenge, nonce, difficulty)).toBe(true);
    const r = await call(t.app, 'login', { body: { username: 'student', password: 'student123', challenge, nonce }, headers: { 'x-forwarded-for': '192.0.2.9' } });
    expect(r.status).toBe(200);
  });
});

describe('a client-chosen X-Forwarded-For does not escape the limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The balancer is 10.0.0.5; the requests come from 127.0.0.1, so their X-Forwarded-For is not believed.
    t = await testApp({ config: { trustProxy: ['10.0.0.5'], loginChallengeBits: TEST_BITS } });
  });
  afterAll(async () => t.close());

  it('100 wrong logins with 100 made-up addresses: refused after the pair limit', async () => {
    let refused = 0;
    for (let i = 0; i < 100; i++) {
      const r = await wrong(t.app, 'student', `198.51.100.${i}`);
      if (r.status === 429) refused++;
      else expect(r.status).toBe(401);
    }
    expect(refused).toBe(100 - DEFAULT_LOGIN_LIMITS.pairMax);
    const last = await wrong(t.app, 'student', '192.0.2.1');
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe('RATE_LIMITED');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('failures per account, per address and per pair, shared by every process', () => {
  let t: TestApp;
  let second: FastifyInstance;
  beforeAll(async () => {
    // Requests come through the balancer 127.0.0.1 (app.inject's address): X-Forwarded-For is the client.
    t = await testApp({ config: { trustProxy: ['127.0.0.1'], loginChallengeBits: TEST_BITS } });
    // A second server process on the same database.
    second = await buildApp({ db: t.db, clock: t.clock, payments: false, config: { outboxDir: t.dirs.outbox, uploadsDir: t.dirs.uploads, logLevel: 'silent', serveApp: false, authRateLimit: 0, cancelSweepMs: 0, trustProxy: ['127.0.0.1'], loginChallengeBits: TEST_BITS } });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('the owner logs in from a known address while someone else exhausts the account', { timeout: 300_000 }, async () => {
    const owner = '203.0.113.7';
    expect((await right(t.app, 'student', owner)).status).toBe(200);
    // Attackers on six addresses, spread over both processes, each below the address limit.
    let n = 0;
    for (let a = 1; n < DEFAULT_LOGIN_LIMITS.accountMax; a++) {
      for (let i = 0; i < DEFAULT_LOGIN_LIMITS.pairMax && n < DEFAULT_LOGIN_LIMITS.accountMax; i++, n++) {
        // After CHALLENGE_AFTER failures each guess costs a proof-of-work (solved here as a browser would).
        expect((await solved(n % 2 ? second : t.app, 'student', 'wrong-password', `198.51.100.${a}`)).status).toBe(401);
      }
    }
    // The account now asks addresses it never logged in from for a challenge — on both processes…
    const asked = await right(t.app, 'student', '192.0.2.50');
    expect(asked.status).toBe(429);
    expect(asked.body.error).toMatchObject({ code: 'CHALLENGE_REQUIRED', result: { difficulty: expect.any(Number), challenge: expect.any(String) } });
    expect((await right(second, 'student', '192.0.2.51')).body.error.code).toBe('CHALLENGE_REQUIRED');
    // …which the owner solves and gets in from a new address (never a lock).
    expect((await solved(second, 'student', 'student123', '192.0.2.52')).status).toBe(200);
    // …but not for its owner on the address they used before.
    expect((await right(second, 'student', owner)).status).toBe(200);
    expect((await right(t.app, 'student', owner)).status).toBe(200);
    // Other accounts are not affected by the attack on this one.
    expect((await right(t.app, 'student2', '192.0.2.50')).status).toBe(200);
  });

  it('one address trying many accounts is held back, the owner elsewhere is not', async () => {
    const attacker = '198.51.100.200';
    for (let i = 0; i < DEFAULT_LOGIN_LIMITS.addressMax; i++) expect((await wrong(i % 2 ? second : t.app, `nobody${i}`, attacker)).status).toBe(401);
    expect((await wrong(t.app, 'nobody-else', attacker)).status).toBe(429);
    expect((await right(t.app, 'student2', '192.0.2.77')).status).toBe(200);
  });

  it('the owner logs in from a new address during a distributed guessing run', async () => {
    t.clock.advance(DEFAULT_LOGIN_LIMITS.windowMs + 1000);
    let owner = 0;
    let guesses = 0;
    // Eleven addresses guess, each below the pair limit; each guess after the tenth costs a
    // proof-of-work. Meanwhile the owner logs in from addresses never used before, every round.
    for (let round = 0; round < 5; round++) {
      for (let a = 0; a < 11; a++) {
        const app = a % 2 ? second : t.app;
        const r = await solved(app, 'student', `guess-${round}-${a}`, `198.18.${round}.${a + 1}`);
        expect(r.status).toBe(401);
        guesses++;
      }
      const r = await solved(round % 2 ? second : t.app, 'student', 'student123', `192.0.2.${100 + round}`);
      expect(r.status).toBe(200);
      owner++;
    }
    expect(guesses).toBe(55);
    expect(owner).toBe(5);
    // A challenge is used once: replaying a solved one is refused with a new challenge.
    const first = await right(t.app, 'student', '192.0.2.150');
    const { challenge, difficulty } = first.body.error.result;
    const nonce = solve(challenge, difficulty);
    expect((await call(t.app, 'login', { body: { username: 'student', password: 'wrong-password', challenge, nonce }, headers: { 'x-forwarded-for': '192.0.2.150' } })).status).toBe(401);
    const replay = await call(t.app, 'login', { body: { username: 'student', password: 'student123', challenge, nonce }, headers: { 'x-forwarded-for': '192.0.2.150' } });
    expect(replay.status).toBe(429);
    expect(replay.body.error.code).toBe('CHALLENGE_REQUIRED');
    // A wrong nonce is refused too (one that does not solve it: at the test's bits a fixed text could).
    const other = await right(t.app, 'student', '192.0.2.151');
    let notASolution = 'x';
    while (solves(other.body.error.result.challenge, notASolution, other.body.error.result.difficulty)) notASolution += 'x';
    const bad = await call(t.app, 'login', { body: { username: 'student', password: 'student123', challenge: other.body.error.result.challenge, nonce: notASolution }, headers: { 'x-forwarded-for': '192.0.2.151' } });
    expect(bad.body.error.code).toBe('CHALLENGE_REQUIRED');
    t.clock.advance(-(DEFAULT_LOGIN_LIMITS.windowMs + 1000));
  }, 600_000);

  it('the window ends and the account opens again', async () => {
    // Past the windows of both runs above (the distributed one ran one window later).
    t.clock.advance(3 * DEFAULT_LOGIN_LIMITS.windowMs);
    expect((await right(t.app, 'student', '192.0.2.50')).status).toBe(200);
    t.clock.advance(-3 * DEFAULT_LOGIN_LIMITS.windowMs);
  });
});
