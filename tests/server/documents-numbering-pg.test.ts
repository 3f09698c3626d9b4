// Document numbers under concurrency on a real PostgreSQL: 200 orders paid at once through two
// separate connection pools (two order services, as two server processes would be) get 200
// consecutive receipt numbers and 200 consecutive tax-invoice numbers — no gap, no double.
// Always on PostgreSQL: TEST_DATABASE_URL when set, else a throwaway cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app';
import { postgresForTests, type PgCluster } from '../support/postgres';
import { createDb, type Db } from '../../server/db/index';
import { createOrderService, type OrderService } from '../../server/orders/service';
import { createEventBus } from '../../server/events';

const N = 200;
// 200 transactions queue on one counter row: a connection may wait longer than the 5 s default.
// Put back after the file: the server project runs its files in shared worker processes.
const connectTimeoutBefore = process.env.PG_CONNECT_TIMEOUT_MS;
process.env.PG_CONNECT_TIMEOUT_MS = '120000';
let pg: PgCluster;
let t: TestApp;
let db2: Db;
let orders2: OrderService;
let ids: number[] = [];

beforeAll(async () => {
  pg = await postgresForTests();
  t = await testApp({ pgUrl: pg.url });
  expect(t.kind).toBe('postgres');
  // The second "process": its own pool on the same database, its own order service.
  db2 = await createDb({ url: t.db.url!, migrate: false, poolSize: 20 });
  orders2 = createOrderService({ db: db2, events: createEventBus(), clock: t.clock });
  const r = await t.db.query<{ id: number }>(
    `INSERT INTO orders (order_token, user_id, status, payment_status, currency_code, payment_method_id, price, discount, shipping_fee, withholding_price, is_withholding, withholding_percent, vat_price, total, email, is_require_tax_invoice)
     SELECT 'num-' || g, 3, 'notYetReceived', 'notYetReceived', 'THB', 1, 107000, 0, 0, 3000, true, 3, 7000, 104000, 'student2@example.com', true FROM generate_series(1, $1) g RETURNING id`,
    [N],
  );
  ids = r.rows.map((x) => x.id);
  await t.db.query(
    `INSERT INTO order_courses (order_id, course_id, course_name, course_type, qty, original_pricing_price, discount, price)
     SELECT id, 5, 'คอร์สทดสอบเลขที่เอกสาร', 'Online', 1, 107000, 0, 107000 FROM orders WHERE id = ANY($1::int[])`,
    [ids],
  );
}, 240_000);

afterAll(async () => {
  await db2?.close();
  await t?.close();
  await pg?.stop();
  if (connectTimeoutBefore === undefined) delete process.env.PG_CONNECT_TIMEOUT_MS;
  else process.env.PG_CONNECT_TIMEOUT_MS = connectTimeoutBefore;
});

describe('numbering under concurrency (PostgreSQL, two pools)', () => {
  it(`${N} concurrent payments give ${N} consecutive numbers per kind`, async () => {
    const started = Date.now();
    await Promise.all(
      ids.map((orderId, i) => {
        const [db, svc] = i % 2 === 0 ? [t.db, t.app.ctx.orders] : [db2, orders2];
        return db.tx((q) => svc.approveOrderPayment(q, { orderId, approveBy: 'test', paymentMethodId: 1 }));
      }),
    );
    const ms = Date.now() - started;
    const rows = (await t.db.query<{ kind: string; seq: number; number: string; order_id: number }>('SELECT kind, seq, number, order_id FROM documents ORDER BY kind, seq')).rows;
    for (const kind of ['receipt', 'tax_invoice']) {
      const of = rows.filter((r) => r.kind === kind);
      expect(of.map((r) => r.seq), kind).toEqual(Array.from({ length: N }, (_, i) => i + 1));
      expect(new Set(of.map((r) => r.order_id)).size, kind).toBe(N);
    }
    expect(new Set(rows.map((r) => r.number)).size).toBe(rows.length);
    const counters = (await t.db.query<{ kind: string; last: number }>('SELECT kind, last FROM document_counters ORDER BY kind')).rows;
    expect(counters).toEqual([
      { kind: 'receipt', last: N },
      { kind: 'tax_invoice', last: N },
    ]);
    console.log(`[documents] ${N} concurrent payments on PostgreSQL (two pools): ${ms} ms`);
  }, 240_000);
});
