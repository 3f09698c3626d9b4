// What one order costs the server and PostgreSQL: statements sent per order, CPU milliseconds per
// order of the API process and of the cluster's processes, and the wall time of one order alone.
// The orders go one after another through `app.inject` (Fastify's whole request path without a
// socket), after a warm-up, on a throwaway PostgreSQL (or DATABASE_URL), with the API as
// `npm run bench` builds it (bench/api-app.ts) and the order it sends (bench/bench-order.ts).
// Usage: npx tsx bench/order-cost.ts [--orders 1000] [--warm 200] [--json]
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startPostgres, type PgCluster } from '../scripts/postgres';
import { benchApi } from './api-app';
import { benchOrder } from './bench-order';

const args = process.argv.slice(2);
const opt = (n: string, d: number) => {
  const i = args.indexOf(n);
  return i >= 0 ? Number(args[i + 1]) : d;
};
const orders = opt('--orders', 1000);
const warm = opt('--warm', 200);

let cluster: PgCluster | null = null;
const url = process.env.DATABASE_URL || (cluster = await startPostgres()).url;
const port = new URL(url).port;

/** user + system CPU ms of the cluster's processes: the postmaster listening on the port and its children. */
function clusterCpuMs(): number {
  const ticks = 100; // USER_HZ on Linux
  const stats = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return { pid: Number(pid), ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]), cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8') };
      } catch {
        return null;
      }
    })
    .filter((s) => s !== null);
  const master = stats.find((s) => s.cmd.includes('postgres') && s.cmd.split('\0').includes(`-p`) && s.cmd.split('\0').includes(port));
  if (!master) throw new Error(`no postmaster on port ${port} among this machine's processes (a remote DATABASE_URL cannot be measured)`);
  return (stats.filter((s) => s.pid === master.pid || s.ppid === master.pid).reduce((t, s) => t + s.cpu, 0) * 1000) / ticks;
}

let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...a: unknown[]) {
  statements++;
  return (query as (...x: unknown[]) => unknown).apply(this, a);
} as typeof query;

const api = await benchApi(url, warm + orders);
const one = async (i: number) => {
  const b = api.buyers[i]!;
  const r = await api.app.inject({ method: 'POST', url: '/private/cart/order', headers: { cookie: b.cookie, 'idempotency-key': `cost-${randomBytes(9).toString('hex')}` }, payload: benchOrder(b.id) });
  if (r.statusCode !== 201) throw new Error(`order ${i}: ${r.statusCode} ${r.body}`);
};
for (let i = 0; i < warm; i++) await one(i);

statements = 0;
const cpu0 = process.cpuUsage();
const pg0 = clusterCpuMs();
const t0 = performance.now();
for (let i = warm; i < warm + orders; i++) await one(i);
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const result = {
  orders,
  statements_per_order: +(statements / orders).toFixed(2),
  api_cpu_ms_per_order: +((cpu.user + cpu.system) / 1000 / orders).toFixed(2),
  postgres_cpu_ms_per_order: +((clusterCpuMs() - pg0) / orders).toFixed(2),
  wall_ms_per_order: +(wall / orders).toFixed(2),
};
await api.close();
await cluster?.stop();
if (args.includes('--json')) console.log(JSON.stringify(result));
else console.table([result]);
