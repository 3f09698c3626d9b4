/**
 * A throwaway PostgreSQL cluster on loopback for tests that need a real server (row locks,
 * concurrency): Debian's PostgreSQL binaries, a temp data folder, trust auth, fsync off.
 * Uses DATABASE_URL instead when the caller already provides one (scripts/test.mjs does).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, chownSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';

export interface PgCluster {
  url: string;
  stop(): Promise<void>;
  /** `pg_ctl restart -m <mode>` (fault tests); absent on a cluster given by TEST_DATABASE_URL. */
  restart?(mode?: 'fast' | 'immediate'): void;
  /** `pg_ctl stop -m fast` / `pg_ctl start` without removing the cluster (fault tests). */
  pause?(): void;
  resume?(): void;
}

function pgBin(): string {
  for (const v of ['17', '16', '15']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(join(dir, 'initdb'))) return dir;
  }
  throw new Error('PostgreSQL binaries not found: run `node scripts/ensure-system.mjs postgres` (installs Debian\'s postgresql).');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function asPostgres(cmd: string, args: string[]): void {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root) execFileSync('runuser', ['-u', 'postgres', '--', cmd, ...args], { stdio: 'pipe' });
  else execFileSync(cmd, args, { stdio: 'pipe' });
}

/** Starts a fresh cluster (about 1 s) and returns its URL; `stop()` removes it. */
export async function startPostgres(): Promise<PgCluster> {
  const bin = pgBin();
  const dir = mkdtempSync(join(tmpdir(), 'pgtest-'));
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await freePort();
  asPostgres(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const opts = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', 'start', '-o', opts]);
  const pgCtl = (args: string[]) => asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'log'), '-w', ...args]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: (mode = 'fast') => pgCtl(['-m', mode, 'restart']),
    pause: () => pgCtl(['-m', 'fast', 'stop']),
    resume: () => pgCtl(['start', '-o', opts]),
    async stop() {
      try {
        asPostgres(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** DATABASE_URL when set, else a fresh cluster. */
export async function postgresForTests(): Promise<PgCluster> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { url, stop: async () => {} };
  return startPostgres();
}
