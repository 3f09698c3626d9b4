// The baseline of `npm run bench`: a bare Fastify hello-world (same Fastify as the API, no plugins,
// no logger) on a free port. Prints { port } when it listens; SIGTERM ends it.
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const i = process.argv.indexOf('--port');
await app.listen({ port: i >= 0 ? Number(process.argv[i + 1]) : 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as AddressInfo).port })}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
