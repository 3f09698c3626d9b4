/** Log in (member, non-member), log out, current session (tag auth). */
import type { Handlers } from '../openapi/router';
import { ApiError } from '../errors';
import { dummyHash, verifyPassword } from '../auth/password';
import { createSession, deleteSession, SESSION_COOKIE } from '../auth/sessions';
import { clearSessionCookie, setSessionCookie } from '../auth/cookies';
import { memberByLogin, nonMembersByEmail, sessionUserForApi, type UserRow } from '../repos/users';
import { loginGate, loginRefusedFor, recordLoginFailure, recordLoginSuccess, type Attempt } from '../auth/limits';
import { issueChallenge, redeemChallenge } from '../auth/challenge';
import { MSG } from '../../domain/messages';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../context';

/** Refuses an attempt that the login limits (server/auth/limits.ts) hold back: 429 with Retry-After. */
async function holdBack(ctx: AppContext, reply: FastifyReply, a: Attempt): Promise<void> {
  const wait = await loginRefusedFor(ctx.db, a, ctx.clock.now());
  if (wait > 0) {
    reply.header('retry-after', String(wait));
    throw new ApiError(429, 'RATE_LIMITED', `Too many failed logins, try again in ${wait} s`);
  }
}

/**
 * Member logins (server/auth/limits.ts loginGate): 429 RATE_LIMITED when this address is held back;
 * when the account had many failures, 429 CHALLENGE_REQUIRED with `{ challenge, difficulty }`
 * until the login comes with a solved one (server/auth/challenge.ts), used once.
 */
async function gate(ctx: AppContext, reply: FastifyReply, a: Attempt, body: { challenge?: string; nonce?: string }): Promise<void> {
  const now = ctx.clock.now();
  const g = await loginGate(ctx.db, a, now, ctx.config.loginChallengeBits);
  if (g.kind === 'wait') {
    reply.header('retry-after', String(g.seconds));
    throw new ApiError(429, 'RATE_LIMITED', `Too many failed logins, try again in ${g.seconds} s`);
  }
  if (g.kind === 'challenge') {
    if (body.challenge !== undefined && (await redeemChallenge(ctx.db, a.realm, g.accountKey, body.challenge, body.nonce, now))) return;
    const c = await issueChallenge(ctx.db, a.realm, g.accountKey, g.difficulty, now);
    reply.header('retry-after', '0');
    throw new ApiError(429, 'CHALLENGE_REQUIRED', MSG.LOGIN_CHALLENGE_REQUIRED, c);
  }
}

const WRONG = () => new ApiError(401, 'UNAUTHORIZED', 'ชื่อผู้ใช้หรือรหัสผ่านไม่ถูกต้อง (wrong username or password)');

/**
 * The right password of a student the shop took off its whitelist: 403 WHITELIST_USER_DENIED, no
 * session (spec section 6: the page shows the sign-out modal). Told only after the password
 * matched, so it says nothing about an account to someone guessing.
 */
function refuseOffWhitelist(user: UserRow): void {
  if (user.off_whitelist_at) throw new ApiError(403, 'WHITELIST_USER_DENIED', MSG.WHITELIST_USER_DENIED);
}

export const authHandlers: Handlers = {
  async login(req, reply, ctx) {
    const { username, password } = req.body;
    const attempt: Attempt = { realm: 'member', account: username, address: req.ip };
    await gate(ctx, reply, attempt, req.body);
    const user = await memberByLogin(ctx.db, username.trim());
    const ok = await verifyPassword(password, user?.password_hash ?? (await dummyHash()));
    if (!user || !ok) {
      await recordLoginFailure(ctx.db, attempt, ctx.clock.now());
      throw WRONG();
    }
    await recordLoginSuccess(ctx.db, attempt, ctx.clock.now());
    refuseOffWhitelist(user);
    const s = await createSession(ctx.db, user.id, user.role, ctx.clock.now(), ctx.config.sessionTtlHours);
    setSessionCookie(req, reply, ctx.config, s.token, s.expiresAt);
    req.log.info({ userId: user.id, role: user.role }, 'login');
    return { success: true, user: sessionUserForApi(user) };
  },

  async loginNonMember(req, reply, ctx) {
    const { email, credential } = req.body;
    const attempt: Attempt = { realm: 'nonmember', account: email, address: req.ip };
    await holdBack(ctx, reply, attempt);
    let user: UserRow | undefined;
    for (const u of await nonMembersByEmail(ctx.db, email)) {
      if (await verifyPassword(credential, u.password_hash)) {
        user = u;
        break;
      }
    }
    if (!user) {
      await verifyPassword(credential, await dummyHash());
      await recordLoginFailure(ctx.db, attempt, ctx.clock.now());
      throw new ApiError(401, 'UNAUTHORIZED', 'ไม่พบผู้ซื้อที่ไม่เป็นสมาชิกนี้ (unknown non-member buyer)');
    }
    await recordLoginSuccess(ctx.db, attempt, ctx.clock.now());
    refuseOffWhitelist(user);
    const s = await createSession(ctx.db, user.id, 'student', ctx.clock.now(), ctx.config.sessionTtlHours);
    setSessionCookie(req, reply, ctx.config, s.token, s.expiresAt);
    return { success: true, user: sessionUserForApi(user) };
  },

  async logout(req, reply, ctx) {
    await deleteSession(ctx.db, req.cookies?.[SESSION_COOKIE]);
    clearSessionCookie(req, reply, ctx.config);
    return { success: true };
  },

  /**
   * Who the cookie's session is. A cookie whose session has ended (expired, idle, logged out
   * elsewhere) is cleared with the answer: the page asks this first when it loads or reads its data
   * again (src/api/signed-in.ts), so after "session expired" it reads as a visitor instead of being
   * refused on every pricing read until the cookie's own expiry. Only this read clears it: an answer
   * to any other request that was already on its way could land after another tab logged in, and
   * would clear that tab's new cookie.
   */
  async getSession(req, reply, ctx) {
    if (req.sessionState === 'stale') clearSessionCookie(req, reply, ctx.config);
    return { success: true, user: req.user ? sessionUserForApi(req.user) : null };
  },
};
