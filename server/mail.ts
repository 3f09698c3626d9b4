/**
 * Mail transport. In development and tests every message is written to the outbox folder as
 * `<time>-<id>.eml` (RFC 822, built by nodemailer's stream transport) plus `<same>.json`
 * ({ to, from, subject, text, html, tag, createdAt }). Passwords are never written: callers pass
 * text without them.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Which flow sent it (registration, paymentorder, …). */
  tag?: string;
}

export interface SentMail extends MailMessage {
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
      const info = await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
      writeFileSync(join(dir, `${base}.eml`), info.message as Buffer);
      const sent: SentMail = { ...msg, id, from, createdAt, file: `${base}.eml` };
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
