/** Users (students and instructors) and their API shapes. */
import type { Queryable } from '../db/index';
import { LOCKS } from '../db/locks';
import type { components } from '../../generated/api';

type S = components['schemas'];

export interface UserRow {
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
  is_require_tax_invoice: boolean;
  tax_person_type: string | null;
  tax_name_one: string | null;
  tax_name_two: string | null;
  tax_payer_identification_no: string | null;
  tax_address: string | null;
  tax_is_delivery_by_tax_address: boolean;
  tax_delivery_address: string | null;
  tax_company_certificate: string | null;
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
