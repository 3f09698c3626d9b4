/**
 * The public answers cache: answers that do not depend on who asks (GET course for a
 * given kind of visitor, site settings, how-to-buy) kept as the exact bytes that were validated
 * against openapi.yaml and sent, so a hit does no database work, no validation and no
 * serialisation.
 *
 *  - Key and variant: `course:2` + the visitor's variant ('g' a guest, 'm' a logged-in member, plus
 *    the courses of the answer the visitor owns: the only per-visitor input of the prices).
 *  - Invalidation: the database's change feed (server/db/index.ts, triggers of migration
 *    131_catalogue_notify.sql). 'c:<id>' drops the entries that show course <id> (their `deps`),
 *    '*' drops everything. A process's own writes reach it before the write resolves; other
 *    processes' within the NOTIFY latency.
 *  - Never stale across a lost feed: while the feed is not live nothing is served or stored, and
 *    everything is dropped when it goes down.
 *  - A build that started before a change is not stored (generation count), so an answer read
 *    from the old rows cannot outlive the notification that came while it was being built.
 *  - None of the cached answers depends on the clock (registration dates and seats are shown as
 *    stored; the sweeper's seat release writes courses.seats, which notifies). `ttlMs` is only a
 *    safety net (PUBLIC_CACHE_TTL_MS, default 5 minutes); PUBLIC_CACHE=off turns the cache off.
 */
import type { ChangeFeed } from './db/index';

interface Entry {
  /** Course ids the answer shows; empty = depends on no course (dropped by '*' only). */
  deps: ReadonlySet<number>;
  variants: Map<string, Buffer>;
  expiresAt: number;
}

export interface PublicCacheStats {
  hits: number;
  misses: number;
  stored: number;
  invalidations: number;
  entries: number;
}

export interface PublicCache {
  /** True when answers may be served and stored (switched on, listening, and the change feed is live). */
  readonly usable: boolean;
  /**
   * Subscribes to the change feed, which starts it (on PostgreSQL: its LISTEN connection). The app
   * calls it once it is ready (server/app.ts), not while it is being built: building it can hold the
   * event loop for longer than PG_CONNECT_TIMEOUT_MS on a loaded machine, and a connection opened
   * before would time out though the database answered. Nothing is cached before.
   */
  listen(): void;
  get(key: string, variant: string): Buffer | undefined;
  /** The course ids an existing entry of `key` shows (the same for every variant). */
  deps(key: string): ReadonlySet<number> | undefined;
  /** Taken before reading what an answer is built from; `put` ignores an answer whose ticket is old. */
  ticket(): number;
  put(ticket: number, key: string, variant: string, deps: Iterable<number>, body: Buffer): void;
  /** A change-feed payload: '*' or 'c:<course id>'. */
  invalidate(payload: string): void;
  stats(): PublicCacheStats;
  close(): void;
}

export interface PublicCacheOptions {
  enabled: boolean;
  ttlMs: number;
  /** Most keys kept (oldest dropped first). */
  maxKeys?: number;
  /** Most variants kept per key (later ones are answered from the database). */
  maxVariants?: number;
  now?: () => number;
}

export function createPublicCache(feed: ChangeFeed | undefined, options: PublicCacheOptions): PublicCache {
  const entries = new Map<string, Entry>();
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 2000;
  const maxVariants = options.maxVariants ?? 64;
  const counts = { hits: 0, misses: 0, stored: 0, invalidations: 0 };
  let generation = 0;
  const on = options.enabled && feed !== undefined;

  const dropAll = () => {
    generation++;
    entries.clear();
  };
  const invalidate = (payload: string) => {
    counts.invalidations++;
    generation++;
    const m = /^c:(\d+)$/.exec(payload);
    if (!m) {
      entries.clear();
      return;
    }
    const id = Number(m[1]);
    for (const [key, e] of entries) if (e.deps.has(id)) entries.delete(key);
  };
  let unsubscribe: (() => void) | null = null;

  const live = (key: string): Entry | undefined => {
    const e = entries.get(key);
    if (!e) return undefined;
    if (e.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return e;
  };

  return {
    get usable() {
      return on && unsubscribe !== null && feed.live;
    },
    listen() {
      if (on && feed && unsubscribe === null) unsubscribe = feed.subscribe({ change: invalidate, live: () => dropAll() });
    },
    get(key, variant) {
      if (!this.usable) return undefined;
      const body = live(key)?.variants.get(variant);
      if (body) counts.hits++;
      else counts.misses++;
      return body;
    },
    deps(key) {
      return this.usable ? live(key)?.deps : undefined;
    },
    ticket() {
      return generation;
    },
    put(ticket, key, variant, deps, body) {
      if (!this.usable || ticket !== generation) return;
      let e = live(key);
      if (!e) {
        if (entries.size >= maxKeys) {
          const oldest = entries.keys().next().value;
          if (oldest !== undefined) entries.delete(oldest);
        }
        e = { deps: new Set(deps), variants: new Map(), expiresAt: now() + options.ttlMs };
        entries.set(key, e);
      }
      // Members owning different sets of the shown courses make variants: a bounded number per key.
      if (!e.variants.has(variant) && e.variants.size >= maxVariants) return;
      e.variants.set(variant, body);
      counts.stored++;
    },
    invalidate,
    stats() {
      return { ...counts, entries: entries.size };
    },
    close() {
      unsubscribe?.();
      unsubscribe = null;
      dropAll();
    },
  };
}
