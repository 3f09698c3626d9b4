/**
 * The one database seam: PGlite (embedded PostgreSQL in WASM) by default, a real PostgreSQL
 * (pg Pool) when a URL is given. Same SQL on both; migrations are plain .sql files applied in
 * filename order and recorded in schema_migrations.
 *
 *  - `db.query(sql, params)` outside a transaction.
 *  - `db.tx(async (q) => …)`: inside, use only `q` (PGlite has one connection: db.query inside a tx
 *    deadlocks). On PostgreSQL the transaction is READ COMMITTED on its own pooled connection, so
 *    `SELECT … FOR UPDATE` really blocks other transactions; deadlocks / serialization failures are
 *    retried (3 attempts).
 *  - `afterCommit(q, fn)` runs fn once the transaction q belongs to has committed (at once for db).
 *
 * Value mapping is the same on both engines: int8 and numeric come back as JS numbers (money is
 * integer minor units, well inside 2^53), timestamptz as Date, json/jsonb parsed.
 *
 * PostgreSQL faults (a restart, a failover, a connection killed by the server or a proxy) never end
 * the process: every pooled connection has an 'error' listener for its whole life, checked out or
 * idle; a query or transaction whose connection is lost (or that cannot get one) throws
 * DatabaseUnavailableError, which the API answers 503 SERVICE_UNAVAILABLE; the pool opens new
 * connections as soon as the server is back. A transaction whose connection died before BEGIN was
 * answered is retried on another connection (nothing was done); one that died later is not (its
 * COMMIT may or may not have happened: the client retries with its Idempotency-Key).
 *
 * A PGlite folder belongs to one process at a time: opening it takes the folder's lock
 * (server/db/pglite-lock.ts) and a second process is refused.
 */
import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { ApiError } from '../errors';
import { MSG } from '../../domain/messages';
import { lockPgliteFolder, type PgliteLock } from './pglite-lock';
import { LOCKS } from './locks';

export interface QueryResult<T> {
  rows: T[];
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

/**
 * The database's change feed: every NOTIFY on CHANGE_CHANNEL (sent by the triggers of migration
 * 131_catalogue_notify.sql when a table the public answers read changes), from this process's own
 * writes (delivered before the writing query or COMMIT resolves: read-your-writes) and from every
 * other process on the same PostgreSQL. `live` is false while the feed may miss a change (not yet
 * listening, or the LISTEN connection was lost and is being re-opened): a cache must not serve then.
 */
export interface ChangeFeed {
  readonly live: boolean;
  subscribe(listener: ChangeListener): () => void;
}
export interface ChangeListener {
  /** One NOTIFY payload ('*' or 'c:<course id>'). */
  change(payload: string): void;
  /** The feed became live (true) or may have missed changes (false: drop everything). */
  live(listening: boolean): void;
}

/** The channel the catalogue triggers notify on. */
export const CHANGE_CHANNEL = 'catalogue_changed';

export interface Db extends Queryable {
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Changes of what public answers read (absent on hand-made test doubles: nothing is cached). */
  changes?: ChangeFeed;
  close(): Promise<void>;
  kind: 'pglite' | 'postgres';
  /** The connection URL (PostgreSQL only): realtime opens its own LISTEN/NOTIFY pool on it. */
  url?: string;
}

export interface DbOptions {
  /** postgres://… → PostgreSQL; otherwise PGlite. Default: process.env.DATABASE_URL. */
  url?: string | null;
  /** PGlite data folder; 'memory' (or undefined with memory: true) keeps it in memory. */
  dataDir?: string;
  /** Apply pending migrations (default true). */
  migrate?: boolean;
  /** PostgreSQL pool size (default PG_POOL_MAX, else 10). */
  poolSize?: number;
  /** PostgreSQL connection limits (default: poolLimits(process.env)). */
  limits?: Partial<PoolLimits>;
  /** PGlite: how long to wait for another process to free the folder before refusing (ms, default 0). */
  lockWaitMs?: number;
  /**
   * PGlite in memory: start from this data folder (a `dumpPglite` tarball) instead of an empty
   * cluster. The tests build one migrated, seeded database per run and start each file from it.
   */
  loadDataDir?: Blob;
}

/**
 * The PostgreSQL connection settings of one process. Its connection budget is
 * `max + 1 + REALTIME_POOL_MAX`: the query pool, the change feed's LISTEN connection and the realtime
 * adapter's pool (server/realtime.ts). N processes need N times that, below the server's
 * max_connections (100 by default, 3 of them reserved for superusers).
 */
export interface PoolLimits {
  /** PG_POOL_MAX (10): pooled connections for queries and transactions. */
  max: number;
  /** PG_CONNECT_TIMEOUT_MS (5000): a request waits this long for a connection, then answers 503. */
  connectTimeoutMs: number;
  /** PG_IDLE_TIMEOUT_MS (10000): an idle pooled connection is closed after this long. */
  idleTimeoutMs: number;
  /** PG_STATEMENT_TIMEOUT_MS (30000): the server cancels a statement running longer (0 = no limit). */
  statementTimeoutMs: number;
  /** PG_IDLE_IN_TRANSACTION_TIMEOUT_MS (60000): the server ends a session idle inside a transaction this long (0 = no limit). */
  idleInTransactionTimeoutMs: number;
}

/** Connections of the realtime adapter's own pool (one of them holds its LISTEN). */
export const REALTIME_POOL_MAX = 3;

function posInt(v: string | undefined, dflt: number, min = 0): number {
  const n = v === undefined || v.trim() === '' ? NaN : Number(v);
  return Number.isSafeInteger(n) && n >= min ? n : dflt;
}

/** The connection settings from the environment, with their defaults. */
export function poolLimits(env: NodeJS.ProcessEnv = process.env): PoolLimits {
  return {
    max: posInt(env.PG_POOL_MAX, 10, 1),
    connectTimeoutMs: posInt(env.PG_CONNECT_TIMEOUT_MS, 5000, 1),
    idleTimeoutMs: posInt(env.PG_IDLE_TIMEOUT_MS, 10_000),
    statementTimeoutMs: posInt(env.PG_STATEMENT_TIMEOUT_MS, 30_000),
    idleInTransactionTimeoutMs: posInt(env.PG_IDLE_IN_TRANSACTION_TIMEOUT_MS, 60_000),
  };
}

/** The `application_name` of this shop's connections (pg_stat_activity tells them apart). */
export const APP_NAME = { pool: 'shop', changes: 'shop-changes', realtime: 'shop-realtime' } as const;

/**
 * The database cannot be reached or lost the connection mid-request (restart, failover, a killed
 * connection, no free connection within PG_CONNECT_TIMEOUT_MS): answered 503 SERVICE_UNAVAILABLE.
 */
export class DatabaseUnavailableError extends ApiError {
  readonly reason: unknown;
  constructor(reason: unknown) {
    super(503, 'SERVICE_UNAVAILABLE', MSG.SERVICE_UNAVAILABLE);
    this.name = 'DatabaseUnavailableError';
    this.reason = reason;
  }
}

/** SQLSTATEs of a lost or refused connection: class 08, admin/crash shutdown, starting up, too many connections, a cancelled statement. */
const UNAVAILABLE_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const LOST_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed|connection error|Query read timeout/i;

/** True when err means "the database is not reachable right now" rather than "this SQL failed". */
export function isConnectionLoss(err: unknown): boolean {
  if (err instanceof DatabaseUnavailableError) return true;
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code.startsWith('08') || UNAVAILABLE_CODES.has(code);
  if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
  return LOST_MESSAGE.test(err.message);
}

function unavailable(err: unknown): DatabaseUnavailableError {
  return err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(err);
}

export const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

const INT8 = 20;
const NUMERIC = 1700;
const INT8_ARRAY = 1016;
const NUMERIC_ARRAY = 1231;

function parseNumber(v: string): number {
  return Number(v);
}
function parseNumberArray(v: string): number[] {
  const inner = v.slice(1, -1);
  return inner === '' ? [] : inner.split(',').map(Number);
}

type TxHooks = { afterCommit: (() => void)[] };
const hooks = new WeakMap<object, TxHooks>();

/** Runs fn after the transaction `q` belongs to commits; immediately when q is not a transaction. */
export function afterCommit(q: Queryable, fn: () => void): void {
  const h = hooks.get(q);
  if (h) h.afterCommit.push(fn);
  else fn();
}

function runHooks(h: TxHooks): void {
  for (const fn of h.afterCommit) {
    try {
      fn();
    } catch (err) {
      console.error('afterCommit hook failed', err);
    }
  }
}

/** Fan-out of the change feed to its subscribers; `start` runs at the first subscription. */
function createFeed(start: () => void): ChangeFeed & { readonly started: boolean; emit(payload: string): void; setLive(live: boolean): void } {
  const listeners = new Set<ChangeListener>();
  let live = false;
  let started = false;
  const each = (fn: (l: ChangeListener) => void) => {
    for (const l of listeners) {
      try {
        fn(l);
      } catch (err) {
        console.error('change listener failed', err);
      }
    }
  };
  return {
    get live() {
      return live;
    },
    get started() {
      return started;
    },
    subscribe(l) {
      listeners.add(l);
      if (!started) {
        started = true;
        start();
      }
      return () => void listeners.delete(l);
    },
    emit(payload) {
      each((l) => l.change(payload));
    },
    setLive(v) {
      if (v === live) return;
      live = v;
      each((l) => l.live(v));
    },
  };
}

const RETRY_CODES = new Set(['40P01', '40001']);

async function createPostgres(url: string, limits: PoolLimits): Promise<Db & { exec(sql: string): Promise<void> }> {
  const types = {
    getTypeParser(oid: number, format?: string) {
      if (oid === INT8 || oid === NUMERIC) return parseNumber;
      if (oid === INT8_ARRAY || oid === NUMERIC_ARRAY) return parseNumberArray;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({
    connectionString: url,
    max: limits.max,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    idleTimeoutMillis: limits.idleTimeoutMs,
    application_name: APP_NAME.pool,
    ...(limits.statementTimeoutMs > 0 ? { statement_timeout: limits.statementTimeoutMs } : {}),
    ...(limits.idleInTransactionTimeoutMs > 0 ? { idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs } : {}),
    types: types as never,
  });
  // An idle connection that dies is dropped by the pool (which then emits this).
  pool.on('error', (err) => console.error('postgres: an idle pooled connection was lost:', err.message));
  // pg-pool listens for 'error' only while a connection is idle: a checked-out one that loses its
  // server (a restart, pg_terminate_backend while idle in transaction) would emit 'error' with no
  // listener and end the process. Every connection gets its own listener for its whole life; the
  // query or transaction holding it then fails with DatabaseUnavailableError and drops it.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });

  // The change feed: one dedicated LISTEN connection (re-opened after a loss, the feed not live
  // meanwhile), started by the first subscriber. Once started, every pooled connection LISTENs
  // too: PostgreSQL hands a session its own notifications right after the COMMIT, before the
  // query resolves, so a write through this process is seen by its very next read.
  let listener: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = 100;
  const onNotification = (n: pg.Notification) => {
    if (n.channel === CHANGE_CHANNEL) feed.emit(n.payload ?? '*');
  };
  const listenNow = async (): Promise<void> => {
    retry = null;
    if (closed) return;
    const client = new pg.Client({ connectionString: url, application_name: APP_NAME.changes, connectionTimeoutMillis: limits.connectTimeoutMs });
    client.on('notification', onNotification);
    const lost = () => {
      if (listener !== client) return;
      listener = null;
      feed.setLive(false);
      client.end().catch(() => undefined);
      again();
    };
    client.on('error', lost);
    client.on('end', lost);
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
    } catch (err) {
      console.error('change feed: LISTEN failed, retrying', (err as Error).message);
      client.end().catch(() => undefined);
      again();
      return;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    listener = client;
    delay = 100;
    feed.setLive(true);
  };
  const again = () => {
    if (closed || retry) return;
    retry = setTimeout(() => void listenNow(), delay);
    retry.unref();
    delay = Math.min(delay * 2, 5000);
  };
  const feed = createFeed(() => void listenNow());
  const listening = new WeakSet<pg.PoolClient>();
  /** A pooled connection (LISTENing once the feed started); DatabaseUnavailableError when none can be had. */
  const checkout = async (): Promise<pg.PoolClient> => {
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw unavailable(err);
      }
      if (!feed.started || listening.has(client)) return client;
      try {
        await client.query(`LISTEN ${CHANGE_CHANNEL}`);
        listening.add(client);
        client.on('notification', onNotification);
        return client;
      } catch (err) {
        client.release(err as Error);
        // An idle connection the server had already closed: nothing was done, take another.
        if (isConnectionLoss(err) && attempt < 3) continue;
        throw isConnectionLoss(err) ? unavailable(err) : err;
      }
    }
  };
  const query = async <T>(sql: string, params?: unknown[]): Promise<QueryResult<T>> => {
    const client = await checkout();
    try {
      const r = await client.query(sql, params as unknown[]);
      client.release();
      return { rows: r.rows as T[] };
    } catch (err) {
      // An SQL error (SQLSTATE) leaves the connection usable; anything else (a lost socket) drops it.
      const code = (err as { code?: unknown }).code;
      const lost = isConnectionLoss(err);
      client.release(lost || !(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) ? (err as Error) : undefined);
      throw lost ? unavailable(err) : err;
    }
  };
  return {
    kind: 'postgres',
    url,
    changes: feed,
    query,
    async exec(sql: string) {
      await query(sql);
    },
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await checkout();
        const h: TxHooks = { afterCommit: [] };
        const run = async (sql: string, params?: unknown[]) => {
          try {
            return await client.query(sql, params as unknown[]);
          } catch (err) {
            throw isConnectionLoss(err) ? unavailable(err) : err;
          }
        };
        const q: Queryable & { exec(sql: string): Promise<void> } = {
          async query<R>(sql: string, params?: unknown[]) {
            const r = await run(sql, params);
            return { rows: r.rows as R[] };
          },
          async exec(sql: string) {
            await run(sql);
          },
        };
        hooks.set(q, h);
        let begun = false;
        try {
          await run('BEGIN');
          begun = true;
          const result = await fn(q);
          await run('COMMIT');
          client.release();
          runHooks(h);
          return result;
        } catch (err) {
          if (err instanceof DatabaseUnavailableError) {
            // The connection is gone (the server rolls back whatever was not committed): drop it.
            client.release(err);
            if (!begun && attempt < 3) continue;
            throw err;
          }
          const rolledBack = await client.query('ROLLBACK').then(() => true, () => false);
          client.release(rolledBack ? undefined : (err as Error));
          const code = (err as { code?: string }).code;
          if (code && RETRY_CODES.has(code) && attempt < 3) continue;
          throw err;
        }
      }
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const l = listener;
      listener = null;
      feed.setLive(false);
      await l?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

/** The PGlite instance behind each PGlite handle (for dumpPglite). */
const pgliteOf = new WeakMap<Db, PGlite>();

/** The data folder of a PGlite handle as an uncompressed tarball (createDb's `loadDataDir`). */
export async function dumpPglite(db: Db): Promise<Blob> {
  const lite = pgliteOf.get(db);
  if (!lite) throw new Error('dumpPglite: not a PGlite database');
  return lite.dumpDataDir('none');
}

async function createPglite(dataDir: string | undefined, lockWaitMs: number, loadDataDir?: Blob): Promise<Db & { exec(sql: string): Promise<void> }> {
  let lock: PgliteLock | null = null;
  if (dataDir && dataDir !== 'memory') {
    mkdirSync(dataDir, { recursive: true });
    // One process per folder: a second one is refused (PgliteLockedError names the holder).
    lock = await lockPgliteFolder(dataDir, { waitMs: lockWaitMs });
  }
  const parsers = { [INT8]: parseNumber, [NUMERIC]: parseNumber, [INT8_ARRAY]: parseNumberArray, [NUMERIC_ARRAY]: parseNumberArray };
  let lite: PGlite;
  try {
    lite = dataDir && dataDir !== 'memory' ? await PGlite.create(dataDir, { parsers }) : await PGlite.create({ parsers, ...(loadDataDir ? { loadDataDir } : {}) });
  } catch (err) {
    lock?.release();
    throw err;
  }
  // PGlite runs the listeners of a NOTIFY before the query that caused it resolves (one process).
  const feed = createFeed(() => {
    lite
      .listen(CHANGE_CHANNEL, (payload) => feed.emit(payload))
      .then(() => feed.setLive(true))
      .catch((err: Error) => console.error('change feed: LISTEN failed', err.message));
  });
  const db: Db & { exec(sql: string): Promise<void> } = {
    kind: 'pglite',
    changes: feed,
    async query<T>(sql: string, params?: unknown[]) {
      const r = await lite.query<T>(sql, params as unknown[]);
      return { rows: r.rows };
    },
    async exec(sql: string) {
      await lite.exec(sql);
    },
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const h: TxHooks = { afterCommit: [] };
      const result = await lite.transaction(async (t) => {
        const q: Queryable & { exec(sql: string): Promise<void> } = {
          async query<R>(sql: string, params?: unknown[]) {
            const r = await t.query<R>(sql, params as unknown[]);
            return { rows: r.rows };
          },
          async exec(sql: string) {
            await t.exec(sql);
          },
        };
        hooks.set(q, h);
        return fn(q);
      });
      runHooks(h);
      return result;
    },
    async close() {
      feed.setLive(false);
      try {
        await lite.close();
      } finally {
        lock?.release();
      }
    },
  };
  pgliteOf.set(db, lite);
  return db;
}

/** Creates the database handle and (by default) applies pending migrations. */
export async function createDb(options: DbOptions = {}): Promise<Db> {
  const url = options.url === undefined ? process.env.DATABASE_URL : options.url;
  const limits = { ...poolLimits(), ...options.limits, ...(options.poolSize ? { max: options.poolSize } : {}) };
  const lockWaitMs = options.lockWaitMs ?? posInt(process.env.PGLITE_LOCK_WAIT_MS, 0);
  const db = url ? await createPostgres(url, limits) : await createPglite(options.dataDir, lockWaitMs, options.loadDataDir);
  if (options.migrate !== false) {
    try {
      await migrate(db);
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
  }
  return db;
}

export interface Migration {
  name: string;
  sql: string;
}

/** The migration files (0xx_/1xx_ core, 2xx_ payments), in filename order. */
export function listMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(dir, name), 'utf8') }));
}

/** Applies pending migrations, each in its own transaction; returns the names applied. */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  // Under the migrators' lock: two processes starting at once on one PostgreSQL would otherwise race
  // on CREATE TABLE IF NOT EXISTS (a duplicate-key error on the catalogue).
  await db.tx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.migrations]);
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const m of listMigrations(dir)) {
    const done = await db.tx(async (q) => {
      // One migrator at a time across processes (PostgreSQL); harmless on PGlite.
      await q.query('SELECT pg_advisory_xact_lock($1)', [LOCKS.migrations]);
      const seen = await q.query('SELECT 1 FROM schema_migrations WHERE name = $1', [m.name]);
      if (seen.rows.length > 0) return false;
      await (q as Queryable & { exec(sql: string): Promise<void> }).exec(m.sql);
      await q.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}
