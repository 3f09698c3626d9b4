/**
 * The server test files that `npm test` runs a second time on a real PostgreSQL (stage
 * "vitest (PostgreSQL)" of scripts/test.mjs, a throwaway cluster through TEST_DATABASE_URL).
 * Every server test file runs once on PGlite in the first vitest stage.
 *
 * The rule: a file is listed when what it checks can only go wrong on a PostgreSQL server with
 * several connections, which PGlite (one connection in one process) cannot show:
 *  - two or more requests, app instances or processes at once on one database: row and advisory
 *    locks that really block, isolation, the deadlock/serialization retry, "exactly once";
 *  - LISTEN/NOTIFY between connections: the public cache's change feed, the realtime adapter;
 *  - the pg driver and its pool themselves (timeouts, lost connections, pool limits).
 * A file is not listed for its SQL alone: PGlite is PostgreSQL's own engine (same planner,
 * constraints and SQL), server/db gives both the same type parsers, and the migrations run on a
 * real cluster in every listed file, in the scale project and in every end-to-end worker.
 * Files that need PostgreSQL whatever the stage (concurrency, public-cache-pg, scale-sweep) start
 * their own cluster when TEST_DATABASE_URL is unset, so they already run on it in the first stage
 * and are not listed again.
 * Paths are relative to the repository; scripts/test.mjs refuses a path that does not exist.
 */
export const ON_POSTGRES = [
  // Concurrent orders on one seat and one coupon: row and advisory locks (server/orders/holds.ts).
  'tests/server/holds.test.ts',
  // The cache's change feed is a LISTEN on its own connection; writes NOTIFY it.
  'tests/server/public-cache.test.ts',
  // Two app instances complete one sandbox charge at once: one changes it.
  'tests/server/sandbox-store.test.ts',
  // Three concurrent refund requests of one payment: refunded once.
  'tests/server/payments/refund-paypal-pending.test.ts',
  // Socket.IO on the PostgreSQL adapter (NOTIFY between processes) on PostgreSQL.
  'tests/server/payments/realtime-secrets.test.ts',
];
