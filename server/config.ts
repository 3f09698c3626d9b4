/** Server configuration from the environment (one place; tests pass overrides). */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { providerProblems, SANDBOX_KEYS } from './providers/config';
import { adminTokenProblem } from './admin/session';
import { DEFAULT_CHALLENGE_BITS, type ChallengeBits } from './auth/limits';

/** The back office token of the demo shop (development and tests only; README documents it). */
export const DEV_ADMIN_TOKEN = 'admin-dev-token';
/** A production ADMIN_TOKEN is at least this long (e.g. `openssl rand -base64 32`). */
export const ADMIN_TOKEN_MIN_LENGTH = 32;

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  /** postgres://… → PostgreSQL; null → PGlite in dataDir. */
  databaseUrl: string | null;
  /** PGlite data folder, or 'memory'. */
  dataDir: string;
  /** Folder the mail transport writes .eml/.json files into. */
  outboxDir: string;
  /** Folder uploaded files are stored in, served at /uploads/*. */
  uploadsDir: string;
  /** Storage quota for uploads in bytes (GET /api/storage/details answers the free part in GB). */
  storageQuotaBytes: number;
  /** Largest single upload in bytes. */
  maxUploadBytes: number;
  /** Each student's share of the storage (bytes) and each registration upload token's. */
  uploadShareBytes: { student: number; visitor: number };
  /** Uploads per student or upload token in 10 minutes (0 = no limit). */
  uploadsPer10Minutes: number;
  /** Life of an upload token of the layout-4 registration, in minutes. */
  uploadTokenMinutes: number;
  /** What one visitor or buyer may take of things others need (README "Security": abuse limits). */
  abuse: AbuseLimits;
  /** Serve dist/ with SPA fallback (SERVE_APP=0 serves only the API). */
  serveApp: boolean;
  distDir: string;
  /** Session lifetime in hours. */
  sessionTtlHours: number;
  /** Sessions unused for this many minutes end (idle limit); 0 = no idle limit. */
  sessionIdleMinutes: number;
  /** 'auto' = Secure when PUBLIC_ORIGIN is https or the request came over https (trusted proxy). */
  cookieSecure: 'auto' | boolean;
  /**
   * The load balancers whose X-Forwarded-* headers are believed: addresses and CIDR ranges
   * (TRUST_PROXY=10.0.0.5,10.1.0.0/16); false = none. Never "everyone".
   */
  trustProxy: string[] | false;
  /** PUBLIC_ORIGIN (https://shop.example): the origin browsers use, also for canonical and social links in pages; null = from the request. */
  publicOrigin: string | null;
  /** The demo shop (anything but NODE_ENV=production): sandboxes, built-in keys, demo notice. */
  demo: boolean;
  /** The back office token; null = back office off. Demo: DEV_ADMIN_TOKEN unless ADMIN_TOKEN is set. */
  adminToken: string | null;
  /** Auto-cancel sweep interval (ms); 0 disables the interval (tests call the sweep directly). */
  cancelSweepMs: number;
  /** Login / registration rate limit: requests per minute per IP (0 = off). */
  authRateLimit: number;
  /**
   * The proof-of-work a login to an account under attack asks (server/auth/limits.ts): always
   * DEFAULT_CHALLENGE_BITS, no environment setting; only a test of the rule sets fewer bits.
   */
  loginChallengeBits: ChallengeBits;
  /** Fallbacks when site settings do not set them. */
  maxUsers: number;
  maxRegistrationsPerDay: number;
  /** Seed the demo shop into an empty database at start (never in production). */
  seedWhenEmpty: boolean;
  /** Answer 500 for responses that break openapi.yaml (dev/test); in production only log. */
  strictResponses: boolean;
  /** PUBLIC_CACHE (default on): keep public answers in memory (server/public-cache.ts); off = always read the database. */
  publicCache: boolean;
  /** PUBLIC_CACHE_TTL_MS: the cache's safety-net age (ms); changes drop entries at once through the change feed. */
  publicCacheTtlMs: number;
  logLevel: string;
  /** Graceful shutdown (main.ts): wait after SIGTERM with /readyz at 503 before closing the listener (ms). */
  shutdownDelayMs: number;
  /** Graceful shutdown: in-flight requests get this long to finish before the process exits anyway (ms). */
  shutdownTimeoutMs: number;
}

/**
 * Abuse limits: what anonymous visitors and unpaid buyers may hold of the shop's shared things.
 * A limit of 0 is off.
 */
export interface AbuseLimits {
  /** Every visitor upload together (not deleted) may use at most this many bytes (VISITOR_POOL_MB; default 10% of the quota). */
  visitorPoolBytes: number;
  /** Bytes visitors may upload per address in 24 hours (VISITOR_UPLOAD_MB_PER_DAY, 50). */
  visitorBytesPerAddressPerDay: number;
  /** Upload tokens per address in 24 hours (UPLOAD_TOKENS_PER_DAY, 20). */
  uploadTokensPerAddressPerDay: number;
  /** Free storage a visitor upload may never use: kept for students' slips (STUDENT_RESERVE_MB; default 20% of the quota). */
  studentReserveBytes: number;
  /** A visitor upload no registration or report uses is deleted after this many hours (VISITOR_UPLOAD_KEEP_HOURS, 24). */
  visitorUploadKeepHours: number;
  /** Unpaid orders (waiting for payment or for a report's review) one account may have open (UNPAID_ORDERS_PER_ACCOUNT, 3). */
  unpaidOrdersPerAccount: number;
  /** Unpaid orders placed from one address in the last 24 hours that are still open (UNPAID_ORDERS_PER_ADDRESS, 5). */
  unpaidOrdersPerAddress: number;
  /** Uses of one coupon per account, in open or paid orders (COUPON_USES_PER_ACCOUNT, 1). */
  couponUsesPerAccount: number;
  /** Minutes an unpaid order keeps its seats, stock and limited coupon uses without a payment in progress (SCARCE_HOLD_MINUTES, 30). */
  scarceHoldMinutes: number;
}

export function loadAbuseLimits(env: NodeJS.ProcessEnv, storageQuotaBytes: number): AbuseLimits {
  const mb = (v: string | undefined, dflt: number) => (v === undefined || v === '' || !Number.isFinite(Number(v)) ? dflt : Number(v) * 1024 ** 2);
  return {
    visitorPoolBytes: mb(env.VISITOR_POOL_MB, Math.floor(storageQuotaBytes * 0.1)),
    visitorBytesPerAddressPerDay: mb(env.VISITOR_UPLOAD_MB_PER_DAY, 50 * 1024 ** 2),
    uploadTokensPerAddressPerDay: num(env.UPLOAD_TOKENS_PER_DAY, 20),
    studentReserveBytes: mb(env.STUDENT_RESERVE_MB, Math.floor(storageQuotaBytes * 0.2)),
    visitorUploadKeepHours: num(env.VISITOR_UPLOAD_KEEP_HOURS, 24),
    unpaidOrdersPerAccount: num(env.UNPAID_ORDERS_PER_ACCOUNT, 3),
    unpaidOrdersPerAddress: num(env.UNPAID_ORDERS_PER_ADDRESS, 5),
    couponUsesPerAccount: num(env.COUPON_USES_PER_ACCOUNT, 1),
    scarceHoldMinutes: num(env.SCARCE_HOLD_MINUTES, 30),
  };
}

const root = resolve(new URL('..', import.meta.url).pathname);

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  return !['0', 'false', 'no', 'off'].includes(v.toLowerCase());
}

function num(v: string | undefined, dflt: number): number {
  const n = v === undefined || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : dflt;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const mode = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' || env.VITEST ? 'test' : 'development';
  const cfg: Config = {
    env: mode,
    port: num(env.PORT, 3000),
    host: env.HOST || '127.0.0.1',
    databaseUrl: env.DATABASE_URL || null,
    dataDir: env.PGLITE_DIR || join(root, '.data', 'pglite'),
    outboxDir: env.OUTBOX_DIR || join(root, 'outbox'),
    uploadsDir: env.UPLOADS_DIR || join(root, 'uploads'),
    storageQuotaBytes: num(env.STORAGE_QUOTA_GB, 5) * 1024 ** 3,
    maxUploadBytes: num(env.MAX_UPLOAD_MB, 200) * 1024 ** 2,
    uploadShareBytes: { student: num(env.UPLOAD_SHARE_MB, 1024) * 1024 ** 2, visitor: num(env.UPLOAD_VISITOR_SHARE_MB, 25) * 1024 ** 2 },
    uploadsPer10Minutes: num(env.UPLOADS_PER_10_MINUTES, 30),
    uploadTokenMinutes: num(env.UPLOAD_TOKEN_MINUTES, 30),
    abuse: loadAbuseLimits(env, num(env.STORAGE_QUOTA_GB, 5) * 1024 ** 3),
    serveApp: bool(env.SERVE_APP, true),
    distDir: env.DIST_DIR || join(root, 'dist'),
    sessionTtlHours: num(env.SESSION_TTL_HOURS, 24 * 14),
    sessionIdleMinutes: num(env.SESSION_IDLE_MINUTES, 120),
    cookieSecure: env.COOKIE_SECURE === undefined || env.COOKIE_SECURE === 'auto' ? 'auto' : bool(env.COOKIE_SECURE, false),
    trustProxy: trustedProxies(env.TRUST_PROXY),
    publicOrigin: env.PUBLIC_ORIGIN?.trim() ? env.PUBLIC_ORIGIN.trim().replace(/\/+$/, '') : null,
    demo: mode !== 'production',
    adminToken: env.ADMIN_TOKEN?.trim() || (mode === 'production' ? null : DEV_ADMIN_TOKEN),
    cancelSweepMs: num(env.CANCEL_SWEEP_MS, 60_000),
    authRateLimit: num(env.AUTH_RATE_LIMIT, 30),
    loginChallengeBits: DEFAULT_CHALLENGE_BITS,
    maxUsers: num(env.MAX_USERS, 100_000),
    maxRegistrationsPerDay: num(env.MAX_REGISTRATIONS_PER_DAY, 500),
    // Never in production: the demo shop's accounts have published passwords.
    seedWhenEmpty: mode !== 'production' && bool(env.SEED_WHEN_EMPTY, true),
    strictResponses: mode !== 'production',
    publicCache: bool(env.PUBLIC_CACHE, true),
    publicCacheTtlMs: num(env.PUBLIC_CACHE_TTL_MS, 5 * 60_000),
    logLevel: env.LOG_LEVEL || (mode === 'test' ? 'silent' : 'info'),
    shutdownDelayMs: num(env.SHUTDOWN_DELAY_MS, 0),
    shutdownTimeoutMs: num(env.SHUTDOWN_TIMEOUT_MS, 15_000),
  };
  const merged = { ...cfg, ...overrides };
  // The abuse limits' defaults follow the quota a caller set (shares of it), unless set themselves.
  if (overrides.storageQuotaBytes !== undefined && overrides.abuse === undefined) merged.abuse = loadAbuseLimits(env, merged.storageQuotaBytes);
  return merged;
}

/** The widest ranges TRUST_PROXY takes: a balancer sits in one network, not in "everyone". */
export const TRUST_PROXY_WIDEST = { ipv4: 8, ipv6: 32 } as const;

/**
 * TRUST_PROXY: a comma-separated list of the balancer's addresses or CIDR ranges. A bare number,
 * "true" or "*" (trust everyone / any hop count) is refused, and so is a range wider than /8
 * (IPv4) or /32 (IPv6) (0.0.0.0/0, ::/0 …): a client could then choose its own address
 * (X-Forwarded-For) and its own protocol.
 */
export function trustedProxies(v: string | undefined): string[] | false {
  const list = (v ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  if (list.length === 0 || (list.length === 1 && ['0', 'false', 'no', 'off'].includes(list[0]!.toLowerCase()))) return false;
  const bad = list.filter((x) => !/^[0-9a-f.:]+(\/\d{1,3})?$/i.test(x) || !/[.:]/.test(x));
  if (bad.length > 0) throw new Error(`TRUST_PROXY takes the load balancer's addresses or CIDR ranges (e.g. 10.0.0.5,10.1.0.0/16), not: ${bad.join(', ')}`);
  const wide = list.filter((x) => {
    const [addr, bits] = x.split('/');
    if (bits === undefined) return false;
    const ipv6 = addr!.includes(':');
    const n = Number(bits);
    return ipv6 ? n < TRUST_PROXY_WIDEST.ipv6 || n > 128 : n < TRUST_PROXY_WIDEST.ipv4 || n > 32;
  });
  if (wide.length > 0) {
    throw new Error(`TRUST_PROXY ranges may be at most /${TRUST_PROXY_WIDEST.ipv4} (IPv4) or /${TRUST_PROXY_WIDEST.ipv6} (IPv6) wide: name the balancer's network, not: ${wide.join(', ')}`);
  }
  return list;
}

/** The settings that may be given as files (NAME_FILE): the database's and the back office's secrets, every provider key. */
export const SECRET_SETTINGS: readonly string[] = ['DATABASE_URL', 'PGPASSWORD', 'ADMIN_TOKEN', ...Object.keys(SANDBOX_KEYS)];

/**
 * Secrets given as files (Docker / compose secrets): for each of SECRET_SETTINGS whose
 * `NAME_FILE=/run/secrets/x` is set and NAME is not, NAME becomes the file's content (without the
 * final newline). Returns the names set.
 */
export function loadSecretFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  const set: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const path = env[`${name}_FILE`];
    if (!path || (env[name] !== undefined && env[name] !== '')) continue;
    env[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    set.push(name);
  }
  return set;
}

/**
 * Why a production start (NODE_ENV=production) would be unsafe: one line per missing or wrong
 * setting — every payment provider on its real API with its own keys, sandboxes off, an
 * ADMIN_TOKEN of real strength, an https PUBLIC_ORIGIN, a TRUST_PROXY no wider than /8 or /32,
 * and no demo seed. Empty outside production and when all is set.
 */
export function productionProblems(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const out = providerProblems(env);
  const token = env.ADMIN_TOKEN?.trim() ?? '';
  if (!token) out.push(`ADMIN_TOKEN (unset; at least ${ADMIN_TOKEN_MIN_LENGTH} random characters)`);
  else if (token === DEV_ADMIN_TOKEN || adminTokenProblem(token, ADMIN_TOKEN_MIN_LENGTH) !== null) {
    // Measured randomness (server/admin/session.ts tokenEntropyBits), not just length or distinct characters.
    out.push(`ADMIN_TOKEN (too weak: ${token === DEV_ADMIN_TOKEN ? 'the demo token' : adminTokenProblem(token, ADMIN_TOKEN_MIN_LENGTH)}; e.g. openssl rand -base64 32)`);
  }
  try {
    trustedProxies(env.TRUST_PROXY);
  } catch (err) {
    out.push(`TRUST_PROXY (${(err as Error).message})`);
  }
  // Provider callbacks, e-mail links, canonical and social links are built from PUBLIC_ORIGIN,
  // never from the request's Host header (which a client chooses).
  const origin = env.PUBLIC_ORIGIN?.trim() ?? '';
  if (!origin) out.push('PUBLIC_ORIGIN (unset: the https origin buyers use, e.g. https://shop.example.com)');
  else if (!/^https:\/\/[^/\s?#]+\/*$/i.test(origin)) out.push(`PUBLIC_ORIGIN (must be an https origin without a path, e.g. https://shop.example.com, not: ${origin})`);
  if (bool(env.SEED_WHEN_EMPTY, false)) out.push('SEED_WHEN_EMPTY (production never seeds the demo shop: its accounts have published passwords)');
  return out;
}

/** The one message a refused production start prints. */
export function productionRefusal(problems: string[]): string {
  return `Refusing to start in production (NODE_ENV=production): these settings are missing or unsafe:\n${problems.map((p) => `  - ${p}`).join('\n')}\nFor the demo shop with sandboxes and demo keys run \`npm start\` without NODE_ENV=production.`;
}

/** The holder file of a PGlite folder: { pid, url, … } of the process holding it (server/db/pglite-lock.ts). */
export { pgliteHolderFile } from './db/pglite-lock';
