/**
 * Uploads need a student session or the short-lived upload token of the
 * layout-4 registration; each student or token is rate-limited and has its own share, so
 * anonymous uploads cannot fill the shop's storage and stop buyers attaching their slips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testApp, type TestApp } from './support/app';
import { multipart } from './support/requests';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(1000, 1)]);

let t: TestApp;
let student: string;
let student2: string;
const up = (cookie: string | null) => call(t.app, 'uploadFile', { ...multipart('imageinput', 'a.png', 'image/png', PNG), cookie });
async function uploadToken(): Promise<string> {
  const r = await call(t.app, 'createUploadToken');
  expect(r.status).toBe(200);
  const set = String(r.headers['set-cookie']);
  expect(set).toMatch(/HttpOnly/i);
  expect(set).toMatch(/SameSite=Strict/i);
  expect(set).toMatch(/Path=\/api\/home\/test_upload/);
  return set.split(';')[0]!;
}

beforeAll(async () => {
  // Shares: 3 files per visitor token, 5 per student; 4 uploads per 10 minutes.
  t = await testApp({ config: { uploadShareBytes: { visitor: 3 * 1100, student: 5 * 1100 }, uploadsPer10Minutes: 4 } });
  student = await login(t.app, 'student');
  student2 = await login(t.app, 'student2');
});
afterAll(async () => t.close());

describe('who may upload', () => {
  it('an anonymous upload is refused: 403 UPLOAD_TOKEN_REQUIRED, nothing stored', async () => {
    const r = await up(null);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('UPLOAD_TOKEN_REQUIRED');
    expect((await t.db.query('SELECT 1 FROM uploads')).rows).toHaveLength(0);
  });

  it('a made-up token is refused', async () => {
    expect((await up('upl=made-up-token')).status).toBe(403);
  });

  it('a registration visitor uploads with the token, counted against it; it expires', async () => {
    const token = await uploadToken();
    expect((await up(token)).status).toBe(200);
    const row = (await t.db.query<{ user_id: number | null; upload_token: string | null }>('SELECT user_id, upload_token FROM uploads')).rows[0]!;
    expect(row.user_id).toBeNull();
    expect(row.upload_token).toBeTruthy();
    t.clock.advance(31 * 60_000);
    expect((await up(token)).status).toBe(403);
    t.clock.advance(-31 * 60_000);
  });

  it('a student uploads with the session, counted against the student', async () => {
    const r = await up(student);
    expect(r.status).toBe(200);
    const row = (await t.db.query<{ user_id: number | null }>('SELECT user_id FROM uploads WHERE file_name = $1', [r.body.fileName[0]])).rows[0]!;
    expect(row.user_id).toBe(2);
  });
});

describe('shares and rate limits', () => {
  it("a visitor token's share ends, the shop's storage does not: a student still uploads", async () => {
    const token = await uploadToken();
    for (let i = 0; i < 3; i++) expect((await up(token)).status).toBe(200);
    const full = await up(token);
    expect(full.status).toBe(422);
    expect(full.body.error.code).toBe('OUT_OF_STORAGE');
    expect((await up(student2)).status).toBe(200);
  });

  it('uploads per student are rate-limited (429 with Retry-After); another student is not held back', async () => {
    t.clock.advance(11 * 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await up(student)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    // the 5-file share of `student` (one stored earlier) ends before the rate: 4th = 422 or 429
    expect(statuses[4]).not.toBe(200);
    const limited = await call(t.app, 'uploadFile', { ...multipart('imageinput', 'a.png', 'image/png', PNG), cookie: student });
    expect([422, 429]).toContain(limited.status);
    t.clock.advance(-11 * 60_000);
  });

  it('the rate limit on its own: 4 uploads in 10 minutes, then 429', async () => {
    t.clock.advance(60 * 60_000);
    await t.db.query('UPDATE uploads SET deleted = true');
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await up(student2)).status);
    expect(codes).toEqual([200, 200, 200, 200, 429]);
    const r = await up(student2);
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    t.clock.advance(-60 * 60_000);
  });
});
