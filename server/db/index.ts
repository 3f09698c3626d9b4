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
 */
import { readdirSync, readFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

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
  /** PostgreSQL pool size (default 20). */
  poolSize?: number;
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

async function createPostgres(url: string, poolSize: number): Promise<Db & { exec(sql: string): Promise<void> }> {
  const types = {
    getTypeParser(oid: number, format?: string) {
      if (oid === INT8 || oid === NUMERIC) return parseNumber;
      if (oid === INT8_ARRAY || oid === NUMERIC_ARRAY) return parseNumberArray;
      return pg.types.getTypeParser(oid, format as 'text');
    },
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: types as never });
  pool.on('error', (err) => console.error('postgres pool error', err.message));

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
    const client = new pg.Client({ connectionString: url });
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
  const checkout = async (): Promise<pg.PoolClient> => {
    const client = await pool.connect();
    if (feed.started && !listening.has(client)) {
      listening.add(client);
      client.on('notification', onNotification);
      try {
        await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
    }
    return client;
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
      client.release(typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? undefined : (err as Error));
      throw err;
    }
  };
  return {
    kind: 'postgres',
    url,
    changes: feed,
    query,
    async exec(sql: string) {
      await pool.query(sql);
    },
    async tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        const client = await checkout();
        const h: TxHooks = { afterCommit: [] };
        const q: Queryable & { exec(sql: string): Promise<void> } = {
          async query<R>(sql: string, params?: unknown[]) {
            const r = await client.query(sql, params as unknown[]);
            return { rows: r.rows as R[] };
          },
          async exec(sql: string) {
            await client.query(sql);
          },
        };
        hooks.set(q, h);
        try {
          await client.query('BEGIN');
          const result = await fn(q);
          await client.query('COMMIT');
          client.release();
          runHooks(h);
          return result;
        } catch (err) {
          await client.query('ROLLBACK').catch(() => undefined);
          client.release();
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

async function createPglite(dataDir: string | undefined): Promise<Db & { exec(sql: string): Promise<void> }> {
  if (dataDir && dataDir !== 'memory') mkdirSync(dataDir, { recursive: true });
  const parsers = { [INT8]: parseNumber, [NUMERIC]: parseNumber, [INT8_ARRAY]: parseNumberArray, [NUMERIC_ARRAY]: parseNumberArray };
  const lite = dataDir && dataDir !== 'memory' ? await PGlite.create(dataDir, { parsers }) : await PGlite.create({ parsers });
  // PGlite runs the listeners of a NOTIFY before the query that caused it resolves (one process).
  const feed = createFeed(() => {
    lite
      .listen(CHANGE_CHANNEL, (payload) => feed.emit(payload))
      .then(() => feed.setLive(true))
      .catch((err: Error) => console.error('change feed: LISTEN failed', err.message));
  });
  return {
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
      await lite.close();
    },
  };
}

/** Creates the database handle and (by default) applies pending migrations. */
export async function createDb(options: DbOptions = {}): Promise<Db> {
  const url = options.url === undefined ? process.env.DATABASE_URL : options.url;
  const db = url ? await createPostgres(url, options.poolSize ?? 20) : await createPglite(options.dataDir);
  if (options.migrate !== false) await migrate(db);
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
    await q.query('SELECT pg_advisory_xact_lock(7346001)');
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const applied: string[] = [];
  for (const m of listMigrations(dir)) {
    const done = await db.tx(async (q) => {
      // One migrator at a time across processes (PostgreSQL); harmless on PGlite.
      await q.query('SELECT pg_advisory_xact_lock(7346001)');
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
