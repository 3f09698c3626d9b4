// Health, readiness and graceful shutdown of the real server process (server/main.ts, PGlite):
// on SIGTERM /readyz turns 503 while the process drains, the listener then closes (new connections
// refused), a request in flight still gets its full answer, and the process exits 0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ready, startServer, waitFor, type Proc } from './support';

let dir: string;
let port: number;
let origin: string;
let server: Proc;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'shutdown-'));
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = startServer(port, dir, { SHUTDOWN_DELAY_MS: '1500', SHUTDOWN_TIMEOUT_MS: '20000', LOG_LEVEL: 'info' });
  await ready(origin, server);
}, 120_000);

afterAll(async () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A raw HTTP/1.1 connection: send parts of a request when the test says so, collect the answer. */
function rawConnection(): Promise<{ socket: Socket; answer: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.on('data', (b: Buffer) => (data += b.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.once('connect', () => resolve({ socket, answer: () => data, closed }));
    socket.once('error', reject);
  });
}

describe('health endpoints and graceful shutdown', () => {
  it('/healthz and /readyz answer outside the contract (not swallowed by the API 404)', async () => {
    const live = await fetch(`${origin}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const readyAnswer = await fetch(`${origin}/readyz`);
    expect(readyAnswer.status).toBe(200);
    expect(await readyAnswer.json()).toEqual({ status: 'ready', db: 'pglite' });
    const unknown = await fetch(`${origin}/api/no-such-route`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
  });

  it('SIGTERM: readiness 503, new connections refused, the request in flight answered in full, exit 0', async () => {
    // A login whose body is only half sent: in flight when the signal arrives.
    const body = JSON.stringify({ username: 'student', password: 'student123' });
    const inflight = await rawConnection();
    inflight.socket.write(`POST /public/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`);
    await new Promise((r) => setTimeout(r, 200));

    const t0 = Date.now();
    server.child.kill('SIGTERM');
    // Draining: still listening, but the balancer is told to stop sending.
    await waitFor(async () => (await fetch(`${origin}/readyz`)).status === 503, 'readyz 503 while draining', 5000, undefined);
    const draining = await fetch(`${origin}/readyz`);
    expect(await draining.json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
    // Then the listener closes: a new connection is refused.
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const s = connect(port, '127.0.0.1');
          s.once('connect', () => {
            s.destroy();
            resolve(false);
          });
          s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
        }),
      'the listener to close',
      10_000,
    );
    expect(server.child.exitCode).toBeNull(); // still finishing the request in flight

    inflight.socket.write(body.slice(10));
    await inflight.closed;
    const answer = inflight.answer();
    expect(answer).toMatch(/^HTTP\/1\.1 200 /u);
    expect(answer).toMatch(/set-cookie: sid=/iu);
    expect(answer).toMatch(/"username":"student"/u);

    const exit = await server.exited;
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(server.output()).not.toMatch(/shutdown timed out|shutdown failed/u);
  }, 60_000);
});
