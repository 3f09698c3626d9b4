/** Registration, custom labels, user groups, profile, tax, shipping addresses, welcome e-mail. */
import { KeepAnswer, SerializedAnswer, type BodyErrorCodes, type Handlers } from '../openapi/router';
import { ApiError, requestLocale } from '../errors';
import { hashPassword } from '../auth/password';
import { MESSAGES, loginDetailsMail, signInLinkMail, welcomeMail } from '../../domain/messages';
import { plainField, sendGuarded, type GuardResult } from '../mail';
import { createSession } from '../auth/sessions';
import { setSessionCookie } from '../auth/cookies';
import { verifyPassword } from '../auth/password';
import { createAccessLink, linkTarget, openAccessLink, openedLinkRecently, shopOrigin, SIGNIN_LINK_MINUTES, WELCOME_LINK_DAYS } from '../students/access-links';
import { changeTaxPersonType } from '../../domain/tax';
import { loadSettings, settingsForApi } from '../repos/settings';
import { findCourse } from '../repos/catalogue';
import { findUser, lockStudentIdentities, lockUser, memberHasEmail, setMemberCredentials, studentByEmail, studentForApi, usernameTaken, type UserRow } from '../repos/users';
import { parseCustomLabels, registrationIssues, startOfThaiDay, taxInfoIssues, type CustomLabelDef, type Issue } from '../students/registration';

function invalid(code: string, msg: string, issues: Issue[]): ApiError {
  return new ApiError(400, code, msg, issues);
}

/** The layout-4 non-member's password: a random secret made by the browser (crypto), never a timestamp. */
const NON_MEMBER_SECRET = /^[A-Za-z0-9_-]{32,128}$/;

/** A mail the limits held back answers 429 (the caller asked too often); one already sent is success. */
function refuseLimited(sent: GuardResult): void {
  if (sent === 'recipient_limit' || sent === 'address_limit') throw new ApiError(429, 'RATE_LIMITED', MESSAGES.MAIL_RATE_LIMITED);
}

const TAX_FIELDS = ['tax_person_type', 'tax_name_one', 'tax_name_two', 'tax_payer_identification_no', 'tax_address', 'tax_delivery_address', 'tax_company_certificate', 'tax_is_delivery_by_tax_address'];

export const studentBodyCodes: BodyErrorCodes = {
  registerStudent: {
    username: { code: 'INVALID_FORMAT_USERNAME', msg: MESSAGES.INVALID_FORMAT_USERNAME },
    password: { code: 'INVALID_FORMAT_PASSWORD', msg: MESSAGES.INVALID_FORMAT_PASSWORD },
    email: { code: 'INVALID_FORMAT_EMAIL', msg: MESSAGES.INVALID_FORMAT_EMAIL },
    ...Object.fromEntries(TAX_FIELDS.map((f) => [f, { code: 'TAX_INVOICE_INVALID', msg: MESSAGES.TAX_INVOICE_INVALID }])),
  },
  updateStudentTax: Object.fromEntries(TAX_FIELDS.map((f) => [f, { code: 'TAX_INVOICE_INVALID', msg: MESSAGES.TAX_INVOICE_INVALID }])),
};

async function customLabels(q: { query: <T>(s: string, p?: unknown[]) => Promise<{ rows: T[] }> }): Promise<CustomLabelDef[]> {
  return (await q.query<CustomLabelDef>('SELECT id, type_label, label, order_label, required, item_list FROM custom_labels ORDER BY order_label, id')).rows;
}

export const studentHandlers: Handlers = {
  // Issue 13: both kept in memory (server/public-cache.ts), dropped by any change of site_settings.
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
    const r = await ctx.db.query<{ id: number; name: string; is_default: boolean }>('SELECT id, name, is_default FROM user_groups WHERE is_selectable ORDER BY id');
    return { success: true, data: r.rows };
  },

  async registerStudent(req, reply, ctx) {
    const body = req.body;
    const settings = await loadSettings(ctx.db);
    const groups = (await ctx.db.query<{ id: number; is_default: boolean }>('SELECT id, is_default FROM user_groups WHERE is_selectable ORDER BY id')).rows;
    const labels = await customLabels(ctx.db);

    // Login info: a member needs a username (layout 4 or the course page's form); a layout-4
    // buyer without one is a non-member whose password is a random secret the browser made
    // (crypto, at least 32 characters) and keeps only for the login that follows.
    const nonMember = !body.username && body.is_registration_layout_four === true;
    if (!body.username && !nonMember) throw invalid('INVALID_FORMAT_USERNAME', MESSAGES.USERNAME_REQUIRED, [{ field: 'username', msg: MESSAGES.USERNAME_REQUIRED }]);
    if (!body.password) throw invalid('INVALID_FORMAT_PASSWORD', MESSAGES.PASSWORD_REQUIRED, [{ field: 'password', msg: MESSAGES.PASSWORD_REQUIRED }]);
    if (nonMember && !NON_MEMBER_SECRET.test(body.password)) throw invalid('INVALID_FORMAT_PASSWORD', MESSAGES.INVALID_FORMAT_PASSWORD, [{ field: 'password', msg: MESSAGES.INVALID_FORMAT_PASSWORD }]);

    const found = registrationIssues(body, settings, labels);
    // A restricted group (not selectable) is never the buyer's choice: refused like an unknown one.
    if (body.studentGroupKpi !== undefined && body.studentGroupKpi !== null && !groups.some((g) => g.id === body.studentGroupKpi)) {
      found.contact.push({ field: 'studentGroupKpi', msg: MESSAGES.USER_GROUP_REQUIRED });
    }
    if (found.contact.length > 0) throw invalid('VALIDATION_ERROR', MESSAGES.INVALID_CONTACT_INFO, found.contact);
    if (found.login.length > 0) throw invalid('INVALID_FORMAT_USERNAME', MESSAGES.INVALID_LOGIN_INFO, found.login);
    if (found.tax.length > 0) throw invalid('TAX_INVOICE_INVALID', MESSAGES.TAX_INVOICE_INVALID, found.tax);

    const passwordHash = await hashPassword(body.password);
    const now = ctx.clock.now();
    const maxUsers = settings.max_users ?? ctx.config.maxUsers;
    const maxPerDay = settings.max_registrations_per_day ?? ctx.config.maxRegistrationsPerDay;
    const groupId = body.studentGroupKpi ?? groups.find((g) => g.is_default)?.id ?? null;
    const userId = await ctx.db.tx(async (q) => {
      // One registration at a time: the limits and the uniqueness checks below stay true.
      await lockStudentIdentities(q);
      const counts = await q.query<{ total: number; today: number }>(
        `SELECT count(*)::int AS total, count(*) FILTER (WHERE created_at >= $1)::int AS today FROM users WHERE role = 'student'`,
        [startOfThaiDay(now)],
      );
      const { total = 0, today = 0 } = counts.rows[0] ?? {};
      if (total >= maxUsers) throw new ApiError(422, 'OVER_LIMIT_USER', MESSAGES.OVER_LIMIT_USER);
      if (today >= maxPerDay) throw new ApiError(429, 'ERROR_CREATE_USER_IN_DAY', MESSAGES.ERROR_CREATE_USER_IN_DAY);
      if (body.username) {
        const dup = await q.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [body.username]);
        if (dup.rows.length > 0) throw new ApiError(409, 'DUPLICATE_USERNAME', MESSAGES.DUPLICATE_USERNAME);
      }
      // One identity per e-mail: a member logs in (or asks for a sign-in link); a buyer without an
      // account who comes back is the same buyer, once they prove the address is theirs (a link
      // by e-mail, requestSignInLink). `result.account` tells the page which way to offer.
      const holder = await studentByEmail(q, body.email);
      if (holder) throw new ApiError(409, 'DUPLICATE_EMAIL', MESSAGES.DUPLICATE_EMAIL, { account: holder.is_member ? 'member' : 'buyer' });
      const r = await q.query<{ id: number }>(
        `INSERT INTO users (role, username, email, password_hash, is_member, firstname, lastname, firstname_eng, lastname_eng, nickname, tel, address, age,
                            user_group_id, custom_label, profile, display_img_url, is_require_tax_invoice, tax_person_type, tax_name_one, tax_name_two,
                            tax_payer_identification_no, tax_address, tax_is_delivery_by_tax_address, tax_delivery_address, tax_company_certificate, created_at, email_verified_at)
         VALUES ('student', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15::jsonb, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, NULL)
         RETURNING id`,
        [
          body.username ?? null, body.email.trim(), passwordHash, !nonMember, body.firstname.trim(), body.lastname.trim(), body.firstname_eng ?? null,
          body.lastname_eng ?? null, body.nickname ?? null, body.tel ?? null, body.address ?? null, body.age ?? null, groupId,
          JSON.stringify(parseCustomLabels(body.customLabel) ?? []),
          JSON.stringify({ branchid: body.branchid ?? null, educationList: body.educationList ?? null, level: body.level ?? null, biography: body.biography ?? null, createby: body.createby ?? null, layout_four: body.is_registration_layout_four ?? false }),
          body.displayImgUrl ?? null, body.is_require_tax_invoice ?? false, body.tax_person_type ?? null, body.tax_name_one ?? null, body.tax_name_two ?? null,
          body.tax_payer_identification_no ?? null, body.tax_address ?? null, body.tax_is_delivery_by_tax_address ?? true, body.tax_delivery_address ?? null,
          body.tax_company_certificate ?? null, now,
        ],
      );
      const id = r.rows[0]!.id;
      await q.query('INSERT INTO registration_log (user_id, ip, created_at) VALUES ($1, $2, $3)', [id, req.ip, now]);
      const link = await createAccessLink(q, id, 'welcome', linkTarget(null), now);
      return { id, link };
    });
    req.log.info({ userId: userId.id, nonMember }, 'student registered');
    // The one registration mail of this account, in the buyer's language: how to get back in.
    const origin = shopOrigin(ctx.config);
    const welcome = welcomeMail(requestLocale(req), {
      site: settings.title,
      firstname: plainField(body.firstname),
      lastname: plainField(body.lastname),
      username: body.username ?? null,
      nonMember,
      link: `${origin}/public/auth/link/${userId.link.token}`,
      linkDays: WELCOME_LINK_DAYS,
      shopUrl: origin,
    });
    const sent = await sendGuarded(ctx.db, ctx.mail, { to: body.email.trim(), tag: 'registration', ...welcome }, { kind: 'registration', userId: userId.id, address: req.ip, verified: false, now });
    if (sent !== 'sent') req.log.warn({ userId: userId.id, sent }, 'welcome mail held back');
    reply.code(201);
    return { success: true, createStudent: true, userId: userId.id };
  },

  async sendRegistrationEmail(req, reply, ctx) {
    const b = req.body;
    const now = ctx.clock.now();
    const since = new Date(now.getTime() - 15 * 60_000);
    const r = await ctx.db.query<UserRow>(
      `SELECT * FROM users WHERE role = 'student' AND lower(email) = lower($1) AND lower(username) = lower($2) AND created_at >= $3`,
      [b.email, b.username, since],
    );
    const user = r.rows[0];
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
    const b = req.body;
    const now = ctx.clock.now();
    const userId = req.user!.id;
    await ctx.db.tx(async (q) => {
      await lockStudentIdentities(q);
      const u = await lockUser(q, userId);
      if (!u) throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
      // A buyer without an account sets their first password; anyone else needs the current one,
      // or to have just opened a link sent to their address (a reset).
      const allowed = !u.is_member || (await openedLinkRecently(q, userId, now)) || (b.current_password !== undefined && u.password_hash !== null && (await verifyPassword(b.current_password, u.password_hash)));
      if (!allowed) throw new ApiError(403, 'FORBIDDEN', MESSAGES.INVALID_LOGIN_INFO);
      const username = u.username ?? b.username;
      if (!username) throw invalid('INVALID_FORMAT_USERNAME', MESSAGES.USERNAME_REQUIRED, [{ field: 'username', msg: MESSAGES.USERNAME_REQUIRED }]);
      if (!u.username) {
        if (await usernameTaken(q, username)) throw new ApiError(409, 'DUPLICATE_USERNAME', MESSAGES.DUPLICATE_USERNAME);
        if (await memberHasEmail(q, u.email, userId)) throw new ApiError(409, 'DUPLICATE_EMAIL', MESSAGES.DUPLICATE_EMAIL, { account: 'member' });
      }
      await setMemberCredentials(q, userId, username, await hashPassword(b.password));
    });
    return { success: true };
  },

  async getStudentProfile(req, _reply, ctx) {
    const u = await findUser(ctx.db, req.user!.id);
    if (!u) throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
    return { success: true, data: studentForApi(u) };
  },

  async updateStudentTax(req, _reply, ctx) {
    const body = req.body;
    const issues = body.is_require_tax_invoice ? taxInfoIssues(body) : [];
    if (issues.length > 0) throw invalid('TAX_INVOICE_INVALID', MESSAGES.TAX_INVOICE_INVALID, issues);
    const userId = req.user!.id;
    await ctx.db.tx(async (q) => {
      const cur = await q.query<UserRow>('SELECT * FROM users WHERE id = $1 FOR UPDATE', [userId]);
      const u = cur.rows[0]!;
      // Changing the person type clears the other tax fields first (spec 5); then the body's
      // fields replace them, fields left out stored empty.
      const base = body.tax_person_type && body.tax_person_type !== u.tax_person_type ? changeTaxPersonType({}, body.tax_person_type) : {};
      const v = { ...base, ...body };
      await q.query(
        `UPDATE users SET is_require_tax_invoice = $2, tax_person_type = $3, tax_name_one = $4, tax_name_two = $5, tax_payer_identification_no = $6,
                          tax_address = $7, tax_is_delivery_by_tax_address = $8, tax_delivery_address = $9, tax_company_certificate = $10
          WHERE id = $1`,
        [
          userId, v.is_require_tax_invoice ?? false, v.tax_person_type ?? null, v.tax_name_one || null, v.tax_name_two || null,
          v.tax_payer_identification_no || null, v.tax_address || null, v.tax_is_delivery_by_tax_address ?? true, v.tax_delivery_address || null,
          v.tax_company_certificate || null,
        ],
      );
    });
    return { success: true };
  },

  async listShippingAddresses(req, _reply, ctx) {
    const r = await ctx.db.query<{ id: number; name: string; tel: string; address: string; sub_district: string; district: string; province: string; postcode: string; is_default: boolean }>(
      'SELECT id, name, tel, address, sub_district, district, province, postcode, is_default FROM shipping_addresses WHERE user_id = $1 ORDER BY is_default DESC, id',
      [req.user!.id],
    );
    return { success: true, data: r.rows };
  },

  async createShippingAddress(req, reply, ctx) {
    const b = req.body;
    const userId = req.user!.id;
    const row = await ctx.db.tx(async (q) => {
      const count = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM shipping_addresses WHERE user_id = $1', [userId]);
      const isDefault = b.is_default === true || (count.rows[0]?.n ?? 0) === 0;
      if (isDefault) await q.query('UPDATE shipping_addresses SET is_default = false WHERE user_id = $1', [userId]);
      const r = await q.query<{ id: number; name: string; tel: string; address: string; sub_district: string; district: string; province: string; postcode: string; is_default: boolean }>(
        `INSERT INTO shipping_addresses (user_id, name, tel, address, sub_district, district, province, postcode, is_default)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id, name, tel, address, sub_district, district, province, postcode, is_default`,
        [userId, b.name, b.tel, b.address, b.sub_district, b.district, b.province, b.postcode, isDefault],
      );
      return r.rows[0]!;
    });
    reply.code(201);
    return { success: true, data: row };
  },

  async updateShippingAddress(req, _reply, ctx) {
    const b = req.body;
    const userId = req.user!.id;
    const row = await ctx.db.tx(async (q) => {
      const own = await q.query<{ is_default: boolean }>('SELECT is_default FROM shipping_addresses WHERE id = $1 AND user_id = $2 FOR UPDATE', [req.params.addressId, userId]);
      if (own.rows.length === 0) throw new ApiError(404, 'NOT_FOUND', `Shipping address ${req.params.addressId} not found`);
      // The default stays the default unless another one is made default.
      const isDefault = b.is_default === true || own.rows[0]!.is_default;
      if (b.is_default === true) await q.query('UPDATE shipping_addresses SET is_default = false WHERE user_id = $1 AND id <> $2', [userId, req.params.addressId]);
      const r = await q.query<{ id: number; name: string; tel: string; address: string; sub_district: string; district: string; province: string; postcode: string; is_default: boolean }>(
        `UPDATE shipping_addresses SET name = $3, tel = $4, address = $5, sub_district = $6, district = $7, province = $8, postcode = $9, is_default = $10
          WHERE id = $1 AND user_id = $2 RETURNING id, name, tel, address, sub_district, district, province, postcode, is_default`,
        [req.params.addressId, userId, b.name, b.tel, b.address, b.sub_district, b.district, b.province, b.postcode, isDefault],
      );
      return r.rows[0]!;
    });
    return { success: true, data: row };
  },
};
