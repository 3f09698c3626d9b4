// Runs a command with TEST_DATABASE_URL pointing at a fresh throwaway PostgreSQL cluster, then stops it.
// Usage: npx tsx scripts/with-postgres.ts -- <command> [args...]
import { spawnSync } from 'node:child_process';
import { startPostgres } from './postgres';

const sep = process.argv.indexOf('--');
const [cmd, ...args] = process.argv.slice(sep + 1);
if (!cmd) {
  console.error('usage: tsx scripts/with-postgres.ts -- <command> [args...]');
  process.exit(2);
}
const pg = await startPostgres();
console.log(`[with-postgres] PostgreSQL at ${pg.url}`);
let status = 1;
try {
  status = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, TEST_DATABASE_URL: pg.url } }).status ?? 1;
} finally {
  await pg.stop();
}
process.exit(status);
