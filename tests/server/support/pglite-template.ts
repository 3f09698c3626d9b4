/**
 * Global setup of the server project (vite.config.ts): builds the embedded database once per run
 * (PGlite's initdb, the migrations, the demo seed at NOW) and writes it as two data folder
 * tarballs: migrated only, and migrated + seeded. testApp (./app.ts) starts each file's PGlite
 * from one of them (createDb's `loadDataDir`) instead of running initdb, every migration and the
 * seed again: that was most of a server test file's time. Every file still gets its own database;
 * nothing is shared between files but the starting point. Not built when the files run on
 * PostgreSQL (TEST_DATABASE_URL): each file then gets a fresh database on that cluster.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb, dumpPglite, type Db } from '../../../server/db/index';
import { seed } from '../../../server/db/seed';
import { NOW } from './now';

export interface PgliteTemplates {
  /** The migrations applied, no rows (testApp's `seedData: false`). */
  migrated: string;
  /** The migrations applied and the demo shop seeded at NOW. */
  seeded: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: PgliteTemplates | null;
  }
}

/** `password` as server/auth/password.ts stores it (`scrypt$N$r$p$salt$key`), with N = 1024. */
function cheapHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 64, { N: 1024, r: 8, p: 1 });
  return `scrypt$1024$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

async function save(db: Db, file: string): Promise<string> {
  writeFileSync(file, Buffer.from(await (await dumpPglite(db)).arrayBuffer()));
  return file;
}

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgliteTemplates', null);
    return () => undefined;
  }
  const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  const db = await createDb({ url: null, dataDir: 'memory' });
  try {
    // The data folder without the two template databases initdb makes (template0 and template1,
    // 7.4 MB each of 43 MB): a test's PGlite only ever opens `postgres` and never creates a
    // database, and every file unpacks this tarball (about a third less to read and unpack: 3.1 →
    // 2.1 CPU s a file, docs/testing.md "Time").
    await db.query(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
    await db.query('DROP DATABASE template0');
    await db.query('DROP DATABASE template1');
    await db.query('CHECKPOINT');
    const migrated = await save(db, join(dir, 'migrated.tar'));
    await seed(db, NOW);
    // The demo accounts' passwords (student123, teacher123) hashed with scrypt N = 1024 instead of
    // the shop's 16384, as the browser tests' students are (tests/e2e/engine/fixtures.ts): the server
    // verifies a hash by the parameters it records, so the same logins pass through the same code,
    // each costing a sixteenth (56 ms of CPU here, over the hundreds of logins and wrong passwords
    // of these files: login-limits.test.ts alone makes about two hundred). Hashes the server makes
    // (registration, a password changed) keep the shop's cost; files on PostgreSQL seed their own.
    for (const [password, usernames] of [['student123', ['student', 'student2']], ['teacher123', ['teacher']]] as const) {
      await db.query('UPDATE users SET password_hash = $1 WHERE username = ANY($2::text[])', [cheapHash(password), usernames]);
    }
    const seeded = await save(db, join(dir, 'seeded.tar'));
    project.provide('pgliteTemplates', { migrated, seeded });
  } finally {
    await db.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}
