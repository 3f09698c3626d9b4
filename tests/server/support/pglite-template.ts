/**
 * Global setup of the server project (vite.config.ts): builds the embedded database once per run
 * (PGlite's initdb, the migrations, the demo seed at NOW) and writes it as two data folder
 * tarballs: migrated only, and migrated + seeded. testApp (./app.ts) starts each file's PGlite
 * from one of them (createDb's `loadDataDir`) instead of running initdb, every migration and the
 * seed again: that was most of a server test file's time. Every file still gets its own database;
 * nothing is shared between files but the starting point. Not built when the files run on
 * PostgreSQL (TEST_DATABASE_URL): each file then gets a fresh database on that cluster.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { createDb, dumpPglite, type Db } from '../../../server/db/index';
import { seed } from '../../../server/db/seed';
import { NOW } from './now';
import { cheapHash } from '../../support/cheap-hash';

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
    // The demo accounts' passwords (student123, teacher123) at a sixteenth of the shop's cost, as
    // the browser tests' students (../../support/cheap-hash.ts): these files log in and try wrong
    // passwords hundreds of times (login-limits.test.ts 17.8 -> 9.5 s). Files on PostgreSQL seed
    // their own, at the shop's cost.
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
