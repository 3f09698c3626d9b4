/**
 * Operating the shop: production holds no demo accounts and builds no link from the request's Host,
 * TRUST_PROXY names a network (at most /8 or /32), secrets may be files, the connection pool's limits
 * are settings, a lost database connection is a 503 (not a 500), and the server's production
 * dependencies are exactly what it imports.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, loadSecretFiles, productionProblems, trustedProxies } from '../../server/config';
import { DatabaseUnavailableError, isConnectionLoss, poolLimits } from '../../server/db/index';
import { DEMO_IN_PRODUCTION, seed, seedIfEmpty } from '../../server/db/seed';
import { realEnv } from './support/requests';

describe('production settings', () => {
  it('a complete production configuration passes', () => {
    expect(productionProblems(realEnv())).toEqual([]);
  });

  it.each([
    ['no PUBLIC_ORIGIN', { PUBLIC_ORIGIN: undefined }],
    ['an http PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'http://shop.example.com' }],
    ['a PUBLIC_ORIGIN with a path', { PUBLIC_ORIGIN: 'https://shop.example.com/shop' }],
    ['the demo seed', { SEED_WHEN_EMPTY: '1' }],
    ['a TRUST_PROXY wider than /8', { TRUST_PROXY: '0.0.0.0/0' }],
  ])('refuses %s', (_what, change: NodeJS.ProcessEnv) => {
    const env: NodeJS.ProcessEnv = { ...realEnv(), ...change };
    for (const [k, v] of Object.entries(change)) if (v === undefined) delete env[k];
    const problems = productionProblems(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/PUBLIC_ORIGIN|SEED_WHEN_EMPTY|TRUST_PROXY/u);
  });

  it('never seeds the demo shop in production, whatever SEED_WHEN_EMPTY says', async () => {
    expect(loadConfig({ NODE_ENV: 'production', SEED_WHEN_EMPTY: '1' }).seedWhenEmpty).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development' }).seedWhenEmpty).toBe(true);
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      const never = { query: () => Promise.reject(new Error('no database access expected')), tx: () => Promise.reject(new Error('no database access expected')), close: async () => {}, kind: 'pglite' as const };
      expect(await seedIfEmpty(never)).toBe(false);
      await expect(seed(never)).rejects.toThrow(DEMO_IN_PRODUCTION);
    } finally {
      process.env.NODE_ENV = before;
    }
  });
});

describe('TRUST_PROXY names the balancer, not the world', () => {
  it('takes ranges up to /8 (IPv4) and /32 (IPv6)', () => {
    expect(trustedProxies('10.0.0.0/8,172.28.0.10,fd00:1::/32,::1')).toEqual(['10.0.0.0/8', '172.28.0.10', 'fd00:1::/32', '::1']);
  });
  it.each(['0.0.0.0/0', '10.0.0.0/7', '::/0', 'fd00::/31', '10.0.0.0/33', '::1/129'])('refuses %s', (v) => {
    expect(() => trustedProxies(v)).toThrow(/TRUST_PROXY/u);
  });
});

describe('secrets as files and pool limits', () => {
  it('reads NAME_FILE for the secret settings only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    try {
      writeFileSync(join(dir, 'token'), 'from-a-file-0123456789\n');
      const env: NodeJS.ProcessEnv = { ADMIN_TOKEN_FILE: join(dir, 'token'), PGPASSWORD_FILE: join(dir, 'token'), OTHER_FILE: '/nonexistent' };
      expect(loadSecretFiles(env).sort()).toEqual(['ADMIN_TOKEN', 'PGPASSWORD']);
      expect(env.ADMIN_TOKEN).toBe('from-a-file-0123456789');
      expect(env.OTHER).toBeUndefined();
      // A value set directly wins.
      const direct: NodeJS.ProcessEnv = { ADMIN_TOKEN: 'direct', ADMIN_TOKEN_FILE: join(dir, 'token') };
      loadSecretFiles(direct);
      expect(direct.ADMIN_TOKEN).toBe('direct');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('pool size and limits are settings with defaults', () => {
    expect(poolLimits({})).toEqual({ max: 10, connectTimeoutMs: 5000, idleTimeoutMs: 10_000, statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 60_000 });
    expect(poolLimits({ PG_POOL_MAX: '4', PG_CONNECT_TIMEOUT_MS: '1500', PG_STATEMENT_TIMEOUT_MS: '0' })).toMatchObject({ max: 4, connectTimeoutMs: 1500, statementTimeoutMs: 0 });
    expect(poolLimits({ PG_POOL_MAX: '0' }).max).toBe(10);
  });
});

describe('a lost database connection', () => {
  it('is told apart from an SQL error', () => {
    const sqlError = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(isConnectionLoss(sqlError)).toBe(false);
    expect(isConnectionLoss(new TypeError('x is not a function'))).toBe(false);
    for (const err of [
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
    ]) {
      expect(isConnectionLoss(err), err.message).toBe(true);
    }
  });
  it('is answered 503 SERVICE_UNAVAILABLE', () => {
    const e = new DatabaseUnavailableError(new Error('Connection terminated'));
    expect(e.status).toBe(503);
    expect(e.code).toBe('SERVICE_UNAVAILABLE');
  });
});

describe("the server's dependencies", () => {
  /** The bare packages reachable from the server's entry points (its own sources, followed). */
  function imported(entries: string[]): Set<string> {
    const seen = new Set<string>();
    const pkgs = new Set<string>();
    // imports, and files the server reads out of a package (require.resolve('pkg/…'), e.g. a font)
    const re = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|import\s+['"]([^'"]+)['"]|require\.resolve\(\s*['"]([^'"]+)['"]\s*\)/gu;
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of readFileSync(file, 'utf8').matchAll(re)) {
        const spec = (m[1] ?? m[2] ?? m[3] ?? m[4])!;
        if (spec.startsWith('.')) {
          const base = resolve(dirname(file), spec);
          const found = [`${base}.ts`, join(base, 'index.ts'), base].find((c) => existsSync(c) && statSync(c).isFile());
          if (!found) throw new Error(`${file}: ${spec} not found`);
          walk(found);
        } else if (!spec.startsWith('node:')) {
          pkgs.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
        }
      }
    };
    for (const e of entries) walk(resolve(e));
    return pkgs;
  }

  it('are exactly the packages it imports (browser-only packages are devDependencies)', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
    const used = imported(['server/main.ts', 'scripts/admin.ts', 'server/db/reset.ts']);
    expect([...used].sort()).toEqual(Object.keys(pkg.dependencies).sort());
    for (const browserOnly of ['react', 'react-dom', 'xstate', 'socket.io-client', 'dompurify', 'openapi-fetch', '@statelyai/inspect', 'tsx']) expect(pkg.dependencies).not.toHaveProperty(browserOnly);
  });

  it('runs on Node 22 and 24 (engines), and the image is Node 24 running compiled JavaScript', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=22');
    const docker = readFileSync('Dockerfile', 'utf8');
    expect(docker).toMatch(/ARG NODE_IMAGE=node:24-/u);
    expect(docker).toMatch(/CMD \["node", "server\/main\.js"\]/u);
    expect(docker).not.toMatch(/--import", "tsx|tsx server/u);
  });
});
