/** Users (students and instructors) and their API shapes. */
import type { Queryable } from '../db/index';
import { LOCKS } from '../db/locks';
import type { components } from '../../generated/api';

type S = components['schemas'];

/** Tax invoice fields as stored (an empty text is stored as null). */
export interface TaxFields {
  is_require_tax_invoice: boolean;
  tax_person_type: string | null;
  tax_name_one: string | null;
  tax_name_two: string | null;
  tax_payer_identification_no: string | null;
  tax_address: string | null;
  tax_is_delivery_by_tax_address: boolean;
  tax_delivery_address: string | null;
  tax_company_certificate: string | null;
}

export interface UserRow extends TaxFields {
  id: number;
  role: 'student' | 'instructor';
  username: string | null;
  email: string;
  password_hash: string | null;
  is_member: boolean;
  firstname: string;
  lastname: string;
  nickname: string | null;
  tel: string | null;
  address: string | null;
  user_group_id: number | null;
  /** Taken off the shop's whitelist (spec WHITELIST_USER_DENIED); null: on it. */
  off_whitelist_at: Date | null;
  created_at: Date;
}

export async function findUser(q: Queryable, id: number): Promise<UserRow | null> {
  const r = await q.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  return r.rows[0] ?? null;
}

/** Legacy role ids: the login form checks role id 3 (students). */
export const ROLE_IDS = { student: 3, instructor: 2 } as const;

export function sessionUserForApi(u: Pick<UserRow, 'id' | 'role' | 'firstname' | 'lastname' | 'email' | 'username' | 'is_member' | 'user_group_id'>): S['SessionUser'] {
  return {
    id: u.id,
    role: u.role,
    role_id: ROLE_IDS[u.role],
    firstname: u.firstname || '-',
    lastname: u.lastname || '-',
    email: u.email,
    username: u.username,
    is_non_member: !u.is_member,
    user_group_id: u.user_group_id,
  };
}

function taxPersonType(v: string | null): S['TaxPersonType'] | null {
  return v === 'normal_person' || v === 'juristic_person' ? v : null;
}

export function studentForApi(u: UserRow): S['Student'] {
  const taxId = u.tax_payer_identification_no && /^\d{13}$/.test(u.tax_payer_identification_no) ? u.tax_payer_identification_no : null;
  return {
    id: u.id,
    firstname: u.firstname,
    lastname: u.lastname,
    user_fullname: `${u.firstname} ${u.lastname}`.trim(),
    nickname: u.nickname,
    email: u.email,
    username: u.username,
    tel: u.tel,
    address: u.address,
    user_group_id: u.user_group_id,
    is_non_member: !u.is_member,
    is_require_tax_invoice: u.is_require_tax_invoice,
    tax_person_type: taxPersonType(u.tax_person_type),
    tax_name_one: u.tax_name_one,
    tax_name_two: u.tax_name_two,
    tax_payer_identification_no: taxId,
    tax_address: u.tax_address,
    tax_is_delivery_by_tax_address: u.tax_is_delivery_by_tax_address,
    tax_delivery_address: u.tax_delivery_address,
    tax_company_certificate: u.tax_company_certificate,
  };
}

/** Serialises registrations and credential changes in this transaction (limits and uniqueness stay true). */
export async function lockStudentIdentities(q: Queryable): Promise<void> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.studentIdentities]);
}

/** The student account of an e-mail (a member first when both exist), or null. */
export async function studentByEmail(q: Queryable, email: string): Promise<(UserRow & { email_verified_at: Date | null }) | null> {
  const r = await q.query<UserRow & { email_verified_at: Date | null }>("SELECT * FROM users WHERE role = 'student' AND lower(email) = lower($1) ORDER BY is_member DESC, id LIMIT 1", [email.trim()]);
  return r.rows[0] ?? null;
}

/** A member (not this user) already has this e-mail. */
export async function memberHasEmail(q: Queryable, email: string, exceptUserId: number): Promise<boolean> {
  const r = await q.query("SELECT 1 FROM users WHERE role = 'student' AND is_member AND lower(email) = lower($1) AND id <> $2", [email, exceptUserId]);
  return r.rows.length > 0;
}

/** Any user already has this username (case-insensitive). */
export async function usernameTaken(q: Queryable, username: string): Promise<boolean> {
  return (await q.query('SELECT 1 FROM users WHERE lower(username) = lower($1)', [username])).rows.length > 0;
}

/** The user, locked for the rest of the transaction. */
export async function lockUser(q: Queryable, id: number): Promise<UserRow | null> {
  return (await q.query<UserRow>('SELECT * FROM users WHERE id = $1 FOR UPDATE', [id])).rows[0] ?? null;
}

/** Gives a buyer without an account (or a member resetting) a username and password: a member from now on. */
export async function setMemberCredentials(q: Queryable, id: number, username: string, passwordHash: string): Promise<void> {
  await q.query('UPDATE users SET username = $2, password_hash = $3, is_member = true WHERE id = $1', [id, username, passwordHash]);
}

/** Students registered in all, and since `since` (the start of the Thai day). */
export async function studentCounts(q: Queryable, since: Date): Promise<{ total: number; today: number }> {
  const r = await q.query<{ total: number; today: number }>(
    `SELECT count(*)::int AS total, count(*) FILTER (WHERE created_at >= $1)::int AS today FROM users WHERE role = 'student'`,
    [since],
  );
  const { total = 0, today = 0 } = r.rows[0] ?? {};
  return { total, today };
}

/** A new student account as stored (registerStudent). */
export interface NewStudent {
  username: string | null;
  email: string;
  passwordHash: string;
  isMember: boolean;
  firstname: string;
  lastname: string;
  firstnameEng: string | null;
  lastnameEng: string | null;
  nickname: string | null;
  tel: string | null;
  address: string | null;
  age: number | null;
  userGroupId: number | null;
  customLabel: unknown;
  profile: unknown;
  displayImgUrl: string | null;
  tax: TaxFields;
  createdAt: Date;
}

/** Inserts a student (e-mail not verified yet); returns its id. */
export async function insertStudent(q: Queryable, s: NewStudent): Promise<number> {
  const r = await q.query<{ id: number }>(
    `INSERT INTO users (role, username, email, password_hash, is_member, firstname, lastname, firstname_eng, lastname_eng, nickname, tel, address, age,
                        user_group_id, custom_label, profile, display_img_url, is_require_tax_invoice, tax_person_type, tax_name_one, tax_name_two,
                        tax_payer_identification_no, tax_address, tax_is_delivery_by_tax_address, tax_delivery_address, tax_company_certificate, created_at, email_verified_at)
     VALUES ('student', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15::jsonb, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, NULL)
     RETURNING id`,
    [
      s.username, s.email, s.passwordHash, s.isMember, s.firstname, s.lastname, s.firstnameEng, s.lastnameEng, s.nickname, s.tel, s.address, s.age, s.userGroupId,
      JSON.stringify(s.customLabel), JSON.stringify(s.profile), s.displayImgUrl, s.tax.is_require_tax_invoice, s.tax.tax_person_type, s.tax.tax_name_one,
      s.tax.tax_name_two, s.tax.tax_payer_identification_no, s.tax.tax_address, s.tax.tax_is_delivery_by_tax_address, s.tax.tax_delivery_address,
      s.tax.tax_company_certificate, s.createdAt,
    ],
  );
  return r.rows[0]!.id;
}

/** Notes where a registration came from (the address limits read it). */
export async function logRegistration(q: Queryable, userId: number, ip: string, at: Date): Promise<void> {
  await q.query('INSERT INTO registration_log (user_id, ip, created_at) VALUES ($1, $2, $3)', [userId, ip, at]);
}

/** The student with this e-mail and username created since `since`, or null. */
export async function recentStudent(q: Queryable, email: string, username: string, since: Date): Promise<UserRow | null> {
  const r = await q.query<UserRow>(
    `SELECT * FROM users WHERE role = 'student' AND lower(email) = lower($1) AND lower(username) = lower($2) AND created_at >= $3`,
    [email, username, since],
  );
  return r.rows[0] ?? null;
}

export async function setTaxFields(q: Queryable, userId: number, v: TaxFields): Promise<void> {
  await q.query(
    `UPDATE users SET is_require_tax_invoice = $2, tax_person_type = $3, tax_name_one = $4, tax_name_two = $5, tax_payer_identification_no = $6,
                      tax_address = $7, tax_is_delivery_by_tax_address = $8, tax_delivery_address = $9, tax_company_certificate = $10
      WHERE id = $1`,
    [
      userId, v.is_require_tax_invoice, v.tax_person_type, v.tax_name_one, v.tax_name_two, v.tax_payer_identification_no, v.tax_address,
      v.tax_is_delivery_by_tax_address, v.tax_delivery_address, v.tax_company_certificate,
    ],
  );
}

/** The member whose username (first) or e-mail is `login`, or null. */
export async function memberByLogin(q: Queryable, login: string): Promise<UserRow | null> {
  const r = await q.query<UserRow>(
    `SELECT * FROM users WHERE is_member AND (lower(username) = lower($1) OR lower(email) = lower($1)) ORDER BY (lower(username) = lower($1)) DESC NULLS LAST, id LIMIT 1`,
    [login],
  );
  return r.rows[0] ?? null;
}

/** The latest buyers without an account under this e-mail (at most 20, newest first). */
export async function nonMembersByEmail(q: Queryable, email: string): Promise<UserRow[]> {
  const r = await q.query<UserRow>(`SELECT * FROM users WHERE role = 'student' AND NOT is_member AND lower(email) = lower($1) ORDER BY id DESC LIMIT 20`, [email]);
  return r.rows;
}
