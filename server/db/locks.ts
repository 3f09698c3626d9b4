/**
 * Every PostgreSQL advisory-lock key this server takes, in one table (transaction-level locks,
 * `pg_advisory_xact_lock` / `pg_try_advisory_xact_lock`). The numbers are fixed: processes of
 * different versions running against one database must agree on them, so an entry is never
 * renumbered and a new one takes an unused number.
 *
 * Single keys (one bigint) lock one thing; the two-key ones are a class whose second key is
 * `hashtext(<value>)` (one lock per address, per recipient). PostgreSQL keeps the one-key and
 * two-key spaces apart, so a class never collides with a single key.
 */
export const LOCKS = {
  /** The migration runner: one migrator at a time (server/db/index.ts migrate). */
  migrations: 7346001,
  /**
   * Student identities: registration (limits, username and e-mail uniqueness), setting a
   * password, and the demo seed, which replaces every account (server/students/service.ts,
   * server/db/seed.ts).
   */
  studentIdentities: 7346002,
  /** Upload storage: quota, shares and the visitors' pool are checked and the file counted under it (server/repos/uploads.ts). */
  uploadStorage: 7346003,
  /** The housekeeping round: one process at a time, the others skip (server/housekeeping.ts). */
  housekeeping: 7346014,
  /** Class: the per-address count of unpaid orders, second key hashtext(address hash) (server/orders/holds.ts). */
  unpaidOrdersPerAddress: 7346020,
  /** Class: mail limits per recipient, second key hashtext(recipient) (server/mail.ts). */
  mailRecipient: 7346601,
} as const;

export type LockName = keyof typeof LOCKS;
