/**
 * Mail transport. In development and tests every message is written to the outbox folder as
 * `<time>-<id>.eml` (RFC 822, built by nodemailer's stream transport) plus `<same>.json`
 * ({ to, from, subject, text, html, tag, createdAt, attachments: [{ filename, contentType, size }] }; the
 * attachments' bytes are in the .eml only). Passwords are never written: callers pass text without
 * them.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import { LOCKS } from './db/locks';

/** A file sent with a mail (a receipt's PDF). */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Which flow sent it (registration, paymentorder, …). */
  tag?: string;
  attachments?: MailAttachment[];
}

/** What the outbox's .json keeps of an attachment (its bytes are in the .eml). */
export interface SentAttachment {
  filename: string;
  contentType: string;
  size: number;
}

export interface SentMail extends Omit<MailMessage, 'attachments'> {
  attachments?: SentAttachment[];
  id: string;
  from: string;
  createdAt: string;
  file: string;
}

export interface MailTransport {
  send(msg: MailMessage): Promise<SentMail>;
  /** Messages in the outbox, oldest first. */
  list(): SentMail[];
  dir: string;
}

export function createOutbox(dir: string, from = 'Course Shop <no-reply@course-shop.local>'): MailTransport {
  mkdirSync(dir, { recursive: true });
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    dir,
    async send(msg) {
      const createdAt = new Date().toISOString();
      const id = randomBytes(6).toString('hex');
      const base = `${createdAt.replace(/[:.]/g, '-')}-${id}`;
      const attachments = msg.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content) }));
      const info = await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html, ...(attachments ? { attachments } : {}) });
      writeFileSync(join(dir, `${base}.eml`), info.message as Buffer);
      const { attachments: files, ...rest } = msg;
      const sent: SentMail = { ...rest, ...(files ? { attachments: files.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.byteLength })) } : {}), id, from, createdAt, file: `${base}.eml` };
      writeFileSync(join(dir, `${base}.json`), JSON.stringify(sent, null, 2));
      return sent;
    },
    list() {
      return readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SentMail);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// E-mail that cannot be aimed. Every mail the shop sends because someone asked (registration,
// a sign-in link, a payment notice) goes through `sendGuarded`, which counts it in the database
// (table mail_log, migration 601) so the limits hold across every server process:
//   - 'registration': one per account, ever (the welcome mail; later requests send nothing). One
//     account per e-mail address, and account creation is itself limited per client address and
//     per day (AUTH_RATE_LIMIT, MAX_REGISTRATIONS_PER_DAY), so an address gets one such mail;
//   - 'signin': the link that verifies an address (so it may go to an unverified one);
//   - 'notice': only to an address its owner verified (opened a link the shop sent to it);
//   - 'document': a receipt / tax invoice / credit note (the paid e-mail, the back office's
//     re-send): verified addresses only, like 'notice', counted apart so a buyer's documents never
//     use up their payment notices;
//   - per kind: at most MAIL_LIMITS[kind].recipientPerHour / recipientPerDay mails to one
//     address, and addressPerHour mails of that kind asked for from one client address.
// Text written by a buyer (names) is put into mails only through `plainField`.
// ---------------------------------------------------------------------------------------------

/** The part of the database handle the guard needs (server/db Db). */
interface GuardDb {
  tx<T>(fn: (q: { query: <R>(sql: string, params?: unknown[]) => Promise<{ rows: R[] }> }) => Promise<T>): Promise<T>;
}

export type MailKind = 'registration' | 'signin' | 'notice' | 'document';

export interface MailLimits {
  recipientPerHour: number;
  recipientPerDay: number;
  addressPerHour: number;
}

export const MAIL_LIMITS: Record<MailKind, MailLimits> = {
  registration: { recipientPerHour: 2, recipientPerDay: 3, addressPerHour: Number.POSITIVE_INFINITY },
  signin: { recipientPerHour: 3, recipientPerDay: 6, addressPerHour: 10 },
  notice: { recipientPerHour: 10, recipientPerDay: 30, addressPerHour: 20 },
  document: { recipientPerHour: 30, recipientPerDay: 100, addressPerHour: Number.POSITIVE_INFINITY },
};

export interface GuardedMail {
  kind: MailKind;
  /** The account the mail is about (registration: one per account). */
  userId: number | null;
  /** The client address that asked (req.ip), null for the shop's own mails. */
  address: string | null;
  /** The recipient's address is verified (required for 'notice' and 'document'). */
  verified: boolean;
  now: Date;
}

export type GuardResult = 'sent' | 'already_sent' | 'unverified' | 'recipient_limit' | 'address_limit';

/** A guarded mail's message; its attachments may be made only once the guard lets it go (PDFs cost time). */
export type GuardedMessage = Omit<MailMessage, 'attachments'> & { attachments?: MailAttachment[] | (() => Promise<MailAttachment[]>) };

/** Sends `msg` if the rules above allow it; the mail is counted before it is sent. */
export async function sendGuarded(db: GuardDb, mail: MailTransport, msg: GuardedMessage, g: GuardedMail, limits: MailLimits = MAIL_LIMITS[g.kind]): Promise<GuardResult> {
  if ((g.kind === 'notice' || g.kind === 'document') && !g.verified) return 'unverified';
  const recipient = msg.to.trim().toLowerCase();
  const hourAgo = new Date(g.now.getTime() - 3_600_000);
  const dayAgo = new Date(g.now.getTime() - 86_400_000);
  const verdict = await db.tx(async (q) => {
    // One decision per recipient at a time (every process): the counts below stay true.
    await q.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [LOCKS.mailRecipient, recipient]);
    if (g.kind === 'registration' && g.userId !== null) {
      const once = await q.query('SELECT 1 FROM mail_log WHERE user_id = $1 AND tag = $2 LIMIT 1', [g.userId, 'registration']);
      if (once.rows.length > 0) return 'already_sent' as const;
    }
    const c = await q.query<{ hour: number; day: number }>(
      'SELECT count(*) FILTER (WHERE created_at > $2)::int AS hour, count(*)::int AS day FROM mail_log WHERE recipient = $1 AND tag = $4 AND created_at > $3',
      [recipient, hourAgo, dayAgo, g.kind],
    );
    const { hour = 0, day = 0 } = c.rows[0] ?? {};
    if (hour >= limits.recipientPerHour || day >= limits.recipientPerDay) return 'recipient_limit' as const;
    if (g.address !== null && Number.isFinite(limits.addressPerHour)) {
      const a = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_log WHERE address = $1 AND tag = $3 AND created_at > $2', [g.address, hourAgo, g.kind]);
      if ((a.rows[0]?.n ?? 0) >= limits.addressPerHour) return 'address_limit' as const;
    }
    await q.query('INSERT INTO mail_log (recipient, address, user_id, tag, created_at) VALUES ($1, $2, $3, $4, $5)', [recipient, g.address, g.userId, g.kind, g.now]);
    return 'sent' as const;
  });
  if (verdict === 'sent') {
    const { attachments, ...rest } = msg;
    const files = typeof attachments === 'function' ? await attachments() : attachments;
    await mail.send({ ...rest, ...(files ? { attachments: files } : {}) });
  }
  return verdict;
}

/**
 * A field a buyer wrote (a name), made safe to put in a mail: one line, control characters
 * removed, at most 100 characters, and anything a mail reader could turn into a link defanged
 * (`http://a.b/c` → `hxxp[:]//a[.]b/c`, `a.example` → `a[.]example`, `x@y.z` → `x[at]y[.]z`).
 */
export function plainField(text: string | null | undefined): string {
  const one = (text ?? '')
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100);
  return one
    .replace(/\b([a-z][a-z0-9+.-]*):\/\//giu, (_m, scheme: string) => `${scheme.replace(/t/giu, 'x')}[:]//`)
    .replace(/\b(mailto|javascript|data|vbscript|tel|sms|file):/giu, '$1[:]')
    .replace(/@/g, '[at]')
    .replace(/([\p{L}\p{N}-])\.(?=[\p{L}\p{N}-])/gu, '$1[.]');
}
