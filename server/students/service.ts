/**
 * Students: registration (the site's limits and the uniqueness of usernames and e-mails, under
 * the student-identity lock), credentials, tax details and shipping addresses. The route
 * handlers (server/routes/students.ts) authorise and shape answers; the rows are the
 * repositories' (server/repos/users.ts, addresses.ts, settings.ts).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { ApiError } from '../errors';
import { hashPassword, verifyPassword } from '../auth/password';
import { MSG, type Shown } from '../../domain/messages';
import { welcomeMail } from '../../domain/mail';
import type { MessageLocale } from '../../domain/messages';
import type { RequestBodyOf } from '../openapi/router';
import { changeTaxPersonType } from '../../domain/tax';
import { plainField, sendGuarded } from '../mail';
import { customLabels, loadSettings, selectableUserGroups } from '../repos/settings';
import {
  insertStudent,
  lockStudentIdentities,
  lockUser,
  logRegistration,
  memberHasEmail,
  setMemberCredentials,
  setTaxFields,
  studentByEmail,
  studentCounts,
  usernameTaken,
} from '../repos/users';
import { clearDefaultAddress, countAddresses, insertAddress, lockAddress, updateAddress, type AddressFields, type AddressRow } from '../repos/addresses';
import { createAccessLink, linkTarget, openedLinkRecently, shopOrigin, WELCOME_LINK_DAYS } from './access-links';
import { parseCustomLabels, registrationIssues, startOfThaiDay, taxInfoIssues, type Issue } from './registration';

function invalid(code: string, msg: Shown, issues: Issue[]): ApiError {
  return new ApiError(400, code, msg, issues);
}

/** The layout-4 non-member's password: a random secret made by the browser (crypto), never a timestamp. */
const NON_MEMBER_SECRET = /^[A-Za-z0-9_-]{32,128}$/;

export interface Registered {
  userId: number;
  nonMember: boolean;
}

/**
 * Registers a student: the site's rules (server/students/registration.ts), then — one
 * registration at a time — the site's limits (accounts in all, registrations today), a free
 * username and e-mail, the account, and its welcome mail with a sign-in link.
 */
export async function registerStudent(ctx: AppContext, body: RequestBodyOf<'registerStudent'>, from: { ip: string; locale: MessageLocale; log: FastifyBaseLogger }): Promise<Registered> {
  const settings = await loadSettings(ctx.db);
  const groups = await selectableUserGroups(ctx.db);
  const labels = await customLabels(ctx.db);

  // Login info: a member needs a username (layout 4 or the course page's form); a layout-4
  // buyer without one is a non-member whose password is a random secret the browser made
  // (crypto, at least 32 characters) and keeps only for the login that follows.
  const nonMember = !body.username && body.is_registration_layout_four === true;
  if (!body.username && !nonMember) throw invalid('INVALID_FORMAT_USERNAME', MSG.USERNAME_REQUIRED, [{ field: 'username', msg: MSG.USERNAME_REQUIRED }]);
  if (!body.password) throw invalid('INVALID_FORMAT_PASSWORD', MSG.PASSWORD_REQUIRED, [{ field: 'password', msg: MSG.PASSWORD_REQUIRED }]);
  if (nonMember && !NON_MEMBER_SECRET.test(body.password)) throw invalid('INVALID_FORMAT_PASSWORD', MSG.INVALID_FORMAT_PASSWORD, [{ field: 'password', msg: MSG.INVALID_FORMAT_PASSWORD }]);

  const found = registrationIssues(body, settings, labels);
  // A restricted group (not selectable) is never the buyer's choice: refused like an unknown one.
  if (body.studentGroupKpi !== undefined && body.studentGroupKpi !== null && !groups.some((g) => g.id === body.studentGroupKpi)) {
    found.contact.push({ field: 'studentGroupKpi', msg: MSG.USER_GROUP_REQUIRED });
  }
  if (found.contact.length > 0) throw invalid('VALIDATION_ERROR', MSG.INVALID_CONTACT_INFO, found.contact);
  if (found.login.length > 0) throw invalid('INVALID_FORMAT_USERNAME', MSG.INVALID_LOGIN_INFO, found.login);
  if (found.tax.length > 0) throw invalid('TAX_INVOICE_INVALID', MSG.TAX_INVOICE_INVALID, found.tax);

  const passwordHash = await hashPassword(body.password);
  const now = ctx.clock.now();
  const maxUsers = settings.max_users ?? ctx.config.maxUsers;
  const maxPerDay = settings.max_registrations_per_day ?? ctx.config.maxRegistrationsPerDay;
  const groupId = body.studentGroupKpi ?? groups.find((g) => g.is_default)?.id ?? null;
  const created = await ctx.db.tx(async (q) => {
    // One registration at a time: the limits and the uniqueness checks below stay true.
    await lockStudentIdentities(q);
    const { total, today } = await studentCounts(q, startOfThaiDay(now));
    if (total >= maxUsers) throw new ApiError(422, 'OVER_LIMIT_USER', MSG.OVER_LIMIT_USER);
    if (today >= maxPerDay) throw new ApiError(429, 'ERROR_CREATE_USER_IN_DAY', MSG.ERROR_CREATE_USER_IN_DAY);
    if (body.username && (await usernameTaken(q, body.username))) throw new ApiError(409, 'DUPLICATE_USERNAME', MSG.DUPLICATE_USERNAME);
    // One identity per e-mail: a member logs in (or asks for a sign-in link); a buyer without an
    // account who comes back is the same buyer, once they prove the address is theirs (a link
    // by e-mail, requestSignInLink). `result.account` tells the page which way to offer.
    const holder = await studentByEmail(q, body.email);
    if (holder) throw new ApiError(409, 'DUPLICATE_EMAIL', MSG.DUPLICATE_EMAIL, { account: holder.is_member ? 'member' : 'buyer' });
    const id = await insertStudent(q, {
      username: body.username ?? null,
      email: body.email.trim(),
      passwordHash,
      isMember: !nonMember,
      firstname: body.firstname.trim(),
      lastname: body.lastname.trim(),
      firstnameEng: body.firstname_eng ?? null,
      lastnameEng: body.lastname_eng ?? null,
      nickname: body.nickname ?? null,
      tel: body.tel ?? null,
      address: body.address ?? null,
      age: body.age ?? null,
      userGroupId: groupId,
      customLabel: parseCustomLabels(body.customLabel) ?? [],
      profile: { branchid: body.branchid ?? null, educationList: body.educationList ?? null, level: body.level ?? null, biography: body.biography ?? null, createby: body.createby ?? null, layout_four: body.is_registration_layout_four ?? false },
      displayImgUrl: body.displayImgUrl ?? null,
      tax: {
        is_require_tax_invoice: body.is_require_tax_invoice ?? false,
        tax_person_type: body.tax_person_type ?? null,
        tax_name_one: body.tax_name_one ?? null,
        tax_name_two: body.tax_name_two ?? null,
        tax_payer_identification_no: body.tax_payer_identification_no ?? null,
        tax_address: body.tax_address ?? null,
        tax_is_delivery_by_tax_address: body.tax_is_delivery_by_tax_address ?? true,
        tax_delivery_address: body.tax_delivery_address ?? null,
        tax_company_certificate: body.tax_company_certificate ?? null,
      },
      createdAt: now,
    });
    await logRegistration(q, id, from.ip, now);
    const link = await createAccessLink(q, id, 'welcome', linkTarget(null), now);
    return { id, link };
  });
  from.log.info({ userId: created.id, nonMember }, 'student registered');
  // The one registration mail of this account, in the buyer's language: how to get back in.
  const origin = shopOrigin(ctx.config);
  const welcome = welcomeMail(from.locale, {
    site: settings.title,
    firstname: plainField(body.firstname),
    lastname: plainField(body.lastname),
    username: body.username ?? null,
    nonMember,
    link: `${origin}/public/auth/link/${created.link.token}`,
    linkDays: WELCOME_LINK_DAYS,
    shopUrl: origin,
  });
  const sent = await sendGuarded(ctx.db, ctx.mail, { to: body.email.trim(), tag: 'registration', ...welcome }, { kind: 'registration', userId: created.id, address: from.ip, verified: false, now });
  if (sent !== 'sent') from.log.warn({ userId: created.id, sent }, 'welcome mail held back');
  return { userId: created.id, nonMember };
}

/**
 * Sets a student's password (and username when they have none): a buyer without an account
 * sets their first one; anyone else needs the current password, or to have just opened a link
 * sent to their address (a reset). Under the student-identity lock.
 */
export async function setStudentPassword(ctx: AppContext, userId: number, b: RequestBodyOf<'setStudentPassword'>): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await lockStudentIdentities(q);
    const u = await lockUser(q, userId);
    if (!u) throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
    const allowed = !u.is_member || (await openedLinkRecently(q, userId, now)) || (b.current_password !== undefined && u.password_hash !== null && (await verifyPassword(b.current_password, u.password_hash)));
    if (!allowed) throw new ApiError(403, 'FORBIDDEN', MSG.INVALID_LOGIN_INFO);
    const username = u.username ?? b.username;
    if (!username) throw invalid('INVALID_FORMAT_USERNAME', MSG.USERNAME_REQUIRED, [{ field: 'username', msg: MSG.USERNAME_REQUIRED }]);
    if (!u.username) {
      if (await usernameTaken(q, username)) throw new ApiError(409, 'DUPLICATE_USERNAME', MSG.DUPLICATE_USERNAME);
      if (await memberHasEmail(q, u.email, userId)) throw new ApiError(409, 'DUPLICATE_EMAIL', MSG.DUPLICATE_EMAIL, { account: 'member' });
    }
    await setMemberCredentials(q, userId, username, await hashPassword(b.password));
  });
}

/**
 * A student's tax details: the rules of domain/forms when an invoice is wanted; changing the
 * person type clears the other tax fields first (spec 5), then the body's fields replace them,
 * fields left out stored empty.
 */
export async function updateStudentTax(ctx: AppContext, userId: number, body: RequestBodyOf<'updateStudentTax'>): Promise<void> {
  const issues = body.is_require_tax_invoice ? taxInfoIssues(body) : [];
  if (issues.length > 0) throw invalid('TAX_INVOICE_INVALID', MSG.TAX_INVOICE_INVALID, issues);
  await ctx.db.tx(async (q) => {
    const u = await lockUser(q, userId);
    if (!u) throw new ApiError(401, 'PERMISSION_DENIED', 'Unauthorized');
    const base = body.tax_person_type && body.tax_person_type !== u.tax_person_type ? changeTaxPersonType({}, body.tax_person_type) : {};
    const v = { ...base, ...body };
    await setTaxFields(q, userId, {
      is_require_tax_invoice: v.is_require_tax_invoice ?? false,
      tax_person_type: v.tax_person_type ?? null,
      tax_name_one: v.tax_name_one || null,
      tax_name_two: v.tax_name_two || null,
      tax_payer_identification_no: v.tax_payer_identification_no || null,
      tax_address: v.tax_address || null,
      tax_is_delivery_by_tax_address: body.tax_is_delivery_by_tax_address ?? true, // not one of the cleared fields
      tax_delivery_address: v.tax_delivery_address || null,
      tax_company_certificate: body.tax_company_certificate || null, // cleared to null
    });
  });
}

const addressFields = (b: AddressFields): AddressFields => ({ name: b.name, tel: b.tel, address: b.address, sub_district: b.sub_district, district: b.district, province: b.province, postcode: b.postcode });

/** A new shipping address; the first one, or one asked to be, is the default. */
export async function createShippingAddress(ctx: AppContext, userId: number, b: AddressFields & { is_default?: boolean }): Promise<AddressRow> {
  return ctx.db.tx(async (q) => {
    const isDefault = b.is_default === true || (await countAddresses(q, userId)) === 0;
    if (isDefault) await clearDefaultAddress(q, userId);
    return insertAddress(q, userId, addressFields(b), isDefault);
  });
}

/** Changes one of the student's addresses (404 when it is not theirs). The default stays the default unless another one is made default. */
export async function updateShippingAddress(ctx: AppContext, userId: number, addressId: number, b: AddressFields & { is_default?: boolean }): Promise<AddressRow> {
  return ctx.db.tx(async (q) => {
    const own = await lockAddress(q, addressId, userId);
    if (!own) throw new ApiError(404, 'NOT_FOUND', `Shipping address ${addressId} not found`);
    const isDefault = b.is_default === true || own.is_default;
    if (b.is_default === true) await clearDefaultAddress(q, userId, addressId);
    return updateAddress(q, userId, addressId, addressFields(b), isDefault);
  });
}
