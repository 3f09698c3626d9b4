/** Registration, custom labels, user groups, profile, tax, shipping addresses, welcome e-mail. */
import { KeepAnswer, SerializedAnswer, type BodyErrorCodes, type Handlers } from '../openapi/router';
import { ApiError, requestLocale } from '../errors';
import { MSG } from '../../domain/messages';
import { loginDetailsMail, signInLinkMail } from '../../domain/mail';
import { plainField, sendGuarded, type GuardResult } from '../mail';
import { createSession } from '../auth/sessions';
import { setSessionCookie } from '../auth/cookies';
import { createAccessLink, linkTarget, openAccessLink, shopOrigin, SIGNIN_LINK_MINUTES } from '../students/access-links';
import { customLabels, loadSettings, selectableUserGroups, settingsForApi } from '../repos/settings';
import { findCourse } from '../repos/catalogue';
import { findUser, recentStudent, studentByEmail, studentForApi } from '../repos/users';
import { listAddresses } from '../repos/addresses';
import { createShippingAddress, registerStudent, setStudentPassword, updateShippingAddress, updateStudentTax } from '../students/service';

/** A mail the limits held back answers 429 (the caller asked too often); one already sent is success. */
function refuseLimited(sent: GuardResult): void {
  if (sent === 'recipient_limit' || sent === 'address_limit') throw new ApiError(429, 'RATE_LIMITED', MSG.MAIL_RATE_LIMITED);
}

const TAX_FIELDS = ['tax_person_type', 'tax_name_one', 'tax_name_two', 'tax_payer_identification_no', 'tax_address', 'tax_delivery_address', 'tax_company_certificate', 'tax_is_delivery_by_tax_address'];

export const studentBodyCodes: BodyErrorCodes = {
  registerStudent: {
    username: { code: 'INVALID_FORMAT_USERNAME', msg: MSG.INVALID_FORMAT_USERNAME },
    password: { code: 'INVALID_FORMAT_PASSWORD', msg: MSG.INVALID_FORMAT_PASSWORD },
    email: { code: 'INVALID_FORMAT_EMAIL', msg: MSG.INVALID_FORMAT_EMAIL },
    ...Object.fromEntries(TAX_FIELDS.map((f) => [f, { code: 'TAX_INVOICE_INVALID', msg: MSG.TAX_INVOICE_INVALID }])),
  },
  updateStudentTax: Object.fromEntries(TAX_FIELDS.map((f) => [f, { code: 'TAX_INVOICE_INVALID', msg: MSG.TAX_INVOICE_INVALID }])),
};

export const studentHandlers: Handlers = {
  // Both kept in memory (server/public-cache.ts), dropped by any change of site_settings.
  async getSiteSettings(_req, _reply, ctx) {
    const cache = ctx.publicCache;
    const hit = cache.get('settings', '');
    if (hit) return new SerializedAnswer(hit);
    const ticket = cache.ticket();
    const body = { success: true as const, data: { ...settingsForApi(await loadSettings(ctx.db)), demo_payments: ctx.config.demo } };
    return new KeepAnswer(body, (json) => cache.put(ticket, 'settings', '', [], json));
  },

  async getHowToBuy(_req, _reply, ctx) {
    const cache = ctx.publicCache;
    const hit = cache.get('howtobuy', '');
    if (hit) return new SerializedAnswer(hit);
    const ticket = cache.ticket();
    const s = await loadSettings(ctx.db);
    const body = { success: true as const, data: s.howtobuy ?? { is_enable_howtobuy: false, description: '' } };
    return new KeepAnswer(body, (json) => cache.put(ticket, 'howtobuy', '', [], json));
  },

  async listCustomLabels(_req, _reply, ctx) {
    const rows = await customLabels(ctx.db);
    return {
      success: true,
      data: rows.map((l) => ({ id: l.id, type_label: l.type_label as 'inputtext', label: l.label, order_label: l.order_label, required: l.required === 1 ? 1 : 0, item_list: l.item_list })),
    };
  },

  async listUserGroups(_req, _reply, ctx) {
    // Only the groups a buyer may pick (restricted groups are assigned by the shop).
    return { success: true, data: await selectableUserGroups(ctx.db) };
  },

  async registerStudent(req, reply, ctx) {
    const r = await registerStudent(ctx, req.body, { ip: req.ip, locale: requestLocale(req), log: req.log });
    reply.code(201);
    return { success: true, createStudent: true, userId: r.userId };
  },

  async sendRegistrationEmail(req, reply, ctx) {
    const b = req.body;
    const now = ctx.clock.now();
    const since = new Date(now.getTime() - 15 * 60_000);
    const user = await recentStudent(ctx.db, b.email, b.username, since);
    if (!user) throw new ApiError(404, 'NOT_FOUND', 'No account was just created for this e-mail and username');
    const settings = await loadSettings(ctx.db);
    // One registration mail per account: registerStudent already sent it (with how to get in), so
    // this call normally sends nothing. No password in any e-mail, and no text of the caller's:
    // the account's own name (made plain) and username only.
    const text = loginDetailsMail(requestLocale(req), { site: settings.title, firstname: plainField(user.firstname), lastname: plainField(user.lastname), username: user.username ?? user.email });
    const sent = await sendGuarded(ctx.db, ctx.mail, { to: user.email, tag: 'registration-login', ...text }, { kind: 'registration', userId: user.id, address: req.ip, verified: false, now });
    refuseLimited(sent);
    reply.code(202);
    return { success: true };
  },

  async requestSignInLink(req, reply, ctx) {
    const b = req.body;
    const now = ctx.clock.now();
    // The answer is the same whether or not the address has an account (nothing to learn here).
    const user = await studentByEmail(ctx.db, b.email);
    if (user) {
      let courseId: number | null = null;
      if (b.course_id !== undefined && b.course_id !== null) {
        courseId = (await findCourse(ctx.db, b.course_id))?.id ?? null;
      }
      const link = await createAccessLink(ctx.db, user.id, 'signin', linkTarget(courseId), now);
      const settings = await loadSettings(ctx.db);
      const text = signInLinkMail(requestLocale(req), { site: settings.title, firstname: plainField(user.firstname), link: `${shopOrigin(ctx.config)}/public/auth/link/${link.token}`, minutes: SIGNIN_LINK_MINUTES });
      const sent = await sendGuarded(ctx.db, ctx.mail, { to: user.email, tag: 'signin-link', ...text }, { kind: 'signin', userId: user.id, address: req.ip, verified: user.email_verified_at !== null, now });
      refuseLimited(sent);
    }
    reply.code(202);
    return { success: true };
  },

  async openSignInLink(req, reply, ctx) {
    const now = ctx.clock.now();
    const opened = await ctx.db.tx((q) => openAccessLink(q, req.params.token, now));
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    if (!opened) return reply.code(303).header('location', '/forgotpass?link=expired').send() as never;
    const s = await createSession(ctx.db, opened.userId, 'student', now, ctx.config.sessionTtlHours);
    setSessionCookie(req, reply, ctx.config, s.token, s.expiresAt);
    req.log.info({ userId: opened.userId }, 'signed in by e-mail link');
    return reply.code(303).header('location', `${opened.target}${opened.target.includes('?') ? '&' : '?'}signedIn=1`).send() as never;
  },

  async setStudentPassword(req, _reply, ctx) {
    await setStudentPassword(ctx, req.user!.id, req.body);
    return { success: true };
  },

  async getStudentProfile(req, _reply, ctx) {
    const u = await findUser(ctx.db, req.user!.id);
    if (!u) throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
    return { success: true, data: studentForApi(u) };
  },

  async updateStudentTax(req, _reply, ctx) {
    await updateStudentTax(ctx, req.user!.id, req.body);
    return { success: true };
  },

  async listShippingAddresses(req, _reply, ctx) {
    return { success: true, data: await listAddresses(ctx.db, req.user!.id) };
  },

  async createShippingAddress(req, reply, ctx) {
    const row = await createShippingAddress(ctx, req.user!.id, req.body);
    reply.code(201);
    return { success: true, data: row };
  },

  async updateShippingAddress(req, _reply, ctx) {
    return { success: true, data: await updateShippingAddress(ctx, req.user!.id, req.params.addressId, req.body) };
  },
};
