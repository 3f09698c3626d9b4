/**
 * `npm run db:reset`: drops everything, applies the migrations and seeds the demo shop — on the
 * PGlite folder (PGLITE_DIR, default .data/pglite) or on DATABASE_URL when set.
 */
import { createDb, migrate } from './index';
import { loadConfig } from '../config';
import { seed } from './seed';

const config = loadConfig();
const db = await createDb({ url: config.databaseUrl, dataDir: config.dataDir, migrate: false });
await db.query('DROP SCHEMA public CASCADE');
await db.query('CREATE SCHEMA public');
const applied = await migrate(db);
await seed(db);
await db.close();
console.log(`[db:reset] ${db.kind}${db.kind === 'pglite' ? ` (${config.dataDir})` : ''}: applied ${applied.join(', ')}; seeded the demo shop.`);
