// The API under load for `npm run bench` (bench/run.mjs), as bench/api-app.ts builds it, on PGlite in
// memory or on the PostgreSQL of --pg URL with --buyers logged-in students. Prints one JSON line
// { port, db, buyers: [{ id, cookie }] } when it listens; SIGTERM ends it.
// Usage: npx tsx bench/api-server.ts [--port N] [--pg URL] [--buyers 1200]
import type { AddressInfo } from 'node:net';
import { benchApi } from './api-app';

const args = process.argv.slice(2);
const opt = (n: string) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const url = opt('--pg') ?? null;
const buyerCount = Number(opt('--buyers') ?? 1200);
const port = Number(opt('--port') ?? 0);

const { app, db, buyers, close } = await benchApi(url, buyerCount);
await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as AddressInfo).port, db: db.kind, buyers })}\n`);

process.once('SIGTERM', () => {
  void close().finally(() => process.exit(0));
});
