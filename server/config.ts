/** Server configuration from the environment (one place; tests pass overrides). */
import { join, resolve } from 'node:path';

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
  /** Serve dist/ with SPA fallback (SERVE_APP=0 serves only the API). */
  serveApp: boolean;
  distDir: string;
  /** Absolute origin for canonical and social links in pages (PUBLIC_ORIGIN); null: the request's. */
  publicOrigin: string | null;
  /** Session lifetime in hours. */
  sessionTtlHours: number;
  /** 'auto' = Secure when the request came over https (x-forwarded-proto with trustProxy). */
  cookieSecure: 'auto' | boolean;
  trustProxy: boolean;
  /** Auto-cancel sweep interval (ms); 0 disables the interval (tests call the sweep directly). */
  cancelSweepMs: number;
  /** Login / registration rate limit: requests per minute per IP (0 = off). */
  authRateLimit: number;
  /** Fallbacks when site settings do not set them. */
  maxUsers: number;
  maxRegistrationsPerDay: number;
  /** Seed the demo shop into an empty database at start. */
  seedWhenEmpty: boolean;
  /** Answer 500 for responses that break openapi.yaml (dev/test); in production only log. */
  strictResponses: boolean;
  logLevel: string;
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
    serveApp: bool(env.SERVE_APP, true),
    distDir: env.DIST_DIR || join(root, 'dist'),
    publicOrigin: env.PUBLIC_ORIGIN || null,
    sessionTtlHours: num(env.SESSION_TTL_HOURS, 24 * 14),
    cookieSecure: env.COOKIE_SECURE === undefined || env.COOKIE_SECURE === 'auto' ? 'auto' : bool(env.COOKIE_SECURE, false),
    trustProxy: bool(env.TRUST_PROXY, false),
    cancelSweepMs: num(env.CANCEL_SWEEP_MS, 60_000),
    authRateLimit: num(env.AUTH_RATE_LIMIT, 30),
    maxUsers: num(env.MAX_USERS, 100_000),
    maxRegistrationsPerDay: num(env.MAX_REGISTRATIONS_PER_DAY, 500),
    seedWhenEmpty: bool(env.SEED_WHEN_EMPTY, true),
    strictResponses: mode !== 'production',
    logLevel: env.LOG_LEVEL || (mode === 'test' ? 'silent' : 'info'),
  };
  return { ...cfg, ...overrides };
}
