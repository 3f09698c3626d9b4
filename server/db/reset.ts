/**
 * `npm run db:reset`: drops everything, applies the migrations and seeds the demo shop — on the
 * PGlite folder (PGLITE_DIR, default .data/pglite) or on DATABASE_URL when set. The demo shop's
 * accounts have published passwords: refused under NODE_ENV=production.
 */
import { createDb, migrate } from './index';
import { loadConfig } from '../config';
import { DEMO_IN_PRODUCTION, seed } from './seed';
import { PgliteLockedError } from './pglite-lock';

const config = loadConfig();
if (config.env === 'production') {
  console.error(`[db:reset] ${DEMO_IN_PRODUCTION}`);
  process.exit(78);
}
let db;
try {
  db = await createDb({ url: config.databaseUrl, dataDir: config.dataDir, migrate: false });
} catch (err) {
  if (!(err instanceof PgliteLockedError)) throw err;
  console.error(`[db:reset] ${err.message}`);
  process.exit(1);
}
await db.query('DROP SCHEMA public CASCADE');
await db.query('CREATE SCHEMA public');
const applied = await migrate(db);
await seed(db);
await db.close();
console.log(`[db:reset] ${db.kind}${db.kind === 'pglite' ? ` (${config.dataDir})` : ''}: applied ${applied.join(', ')}; seeded the demo shop.`);
