/**
 * Storage visitors cannot exhaust (README "Security"): visitors' upload tokens draw from a pool of
 * their own, with a daily limit per address and in total; free storage is always kept for
 * students' slips; visitor uploads nothing uses are deleted after a while.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, testApp, type TestApp } from './support/app';
import { multipart } from './support/requests';
import { housekeeping } from '../../server/housekeeping';
import { loadAbuseLimits } from '../../server/config';

const MB = 1024 ** 2;
const png = (bytes: number) => Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(bytes - 8, 1)]);

let t: TestApp;
const upload = (cookie: string, file: Buffer, remoteAddress: string) => call(t.app, 'uploadFile', { ...multipart('imageinput', 'a.png', 'image/png', file), cookie, remoteAddress });
async function token(remoteAddress: string) {
  const r = await call(t.app, 'createUploadToken', { remoteAddress });
  return { status: r.status, cookie: String(r.headers['set-cookie'] ?? '').split(';')[0]!, body: r.body };
}

describe('with a 30 MB quota (the probe)', () => {
  beforeAll(async () => {
    // Defaults as shares of the quota: visitors' pool 3 MB, students' reserve 6 MB.
    t = await testApp({ config: { storageQuotaBytes: 30 * MB, uploadsPer10Minutes: 30 } });
  }, 180_000);
  afterAll(async () => t.close());

  it('anonymous tokens from eleven addresses cannot keep a student from uploading a slip', async () => {
    expect(t.app.ctx.config.abuse.visitorPoolBytes).toBe(3 * MB);
    let stored = 0;
    let refused = 0;
    for (let a = 1; a <= 11; a++) {
      const address = `198.51.100.${a}`;
      for (let k = 0; k < 3; k++) {
        const tk = await token(address);
        if (tk.status !== 200) continue;
        for (let f = 0; f < 3; f++) {
          const r = await upload(tk.cookie, png(MB / 2), address);
          if (r.status === 200) stored++;
          else {
            expect(r.status).toBe(422);
            expect(r.body.error.code).toBe('OUT_OF_STORAGE');
            refused++;
          }
        }
      }
    }
    expect(stored).toBe(6); // 3 MB of half-megabyte files
    expect(refused).toBeGreaterThan(80);
    const visitors = await t.db.query<{ used: number }>('SELECT coalesce(sum(size), 0)::bigint AS used FROM uploads WHERE upload_token IS NOT NULL AND NOT deleted');
    expect(Number(visitors.rows[0]!.used)).toBeLessThanOrEqual(3 * MB);
    // The student's 60 KB slip goes in.
    const student = await login(t.app, 'student');
    const slip = await call(t.app, 'uploadFile', { ...multipart('imageinput', 'slip.png', 'image/png', png(60 * 1024)), cookie: student });
    expect(slip.status).toBe(200);
  });

  it('visitor uploads never use the students\' reserve', async () => {
    // Students fill the storage up to 1 MB above the reserve: a visitor's 2 MB file is refused
    // though the visitors' pool would have room; the student still uploads.
    await t.db.query('UPDATE uploads SET deleted = true');
    await t.db.query("INSERT INTO uploads (user_id, file_name, original_name, mime, size) VALUES ((SELECT id FROM users WHERE username = 'student2'), 'filler.png', 'filler.png', 'image/png', $1)", [23 * MB]);
    const tk = await token('198.51.100.99');
    expect(tk.status).toBe(200);
    const r = await upload(tk.cookie, png(2 * MB), '198.51.100.99');
    expect(r.status).toBe(422);
    expect(r.body.error.code).toBe('OUT_OF_STORAGE');
    const student = await login(t.app, 'student');
    expect((await call(t.app, 'uploadFile', { ...multipart('imageinput', 'slip.png', 'image/png', png(2 * MB)), cookie: student })).status).toBe(200);
    await t.db.query("DELETE FROM uploads WHERE file_name = 'filler.png'");
  });
});

describe('per address, per day', () => {
  beforeAll(async () => {
    t = await testApp({ config: { abuse: { ...loadAbuseLimits({}, 5 * 1024 ** 3), uploadTokensPerAddressPerDay: 4, visitorBytesPerAddressPerDay: 2 * MB, visitorUploadKeepHours: 24 } } });
  }, 180_000);
  afterAll(async () => t.close());

  it('an address gets 4 tokens a day (429 with Retry-After), another address is not affected', async () => {
    for (let k = 0; k < 4; k++) expect((await token('192.0.2.1')).status).toBe(200);
    const fifth = await call(t.app, 'createUploadToken', { remoteAddress: '192.0.2.1' });
    expect(fifth.status).toBe(429);
    expect(fifth.body.error.code).toBe('RATE_LIMITED');
    expect(Number(fifth.headers['retry-after'])).toBeGreaterThan(80_000);
    expect((await token('192.0.2.2')).status).toBe(200);
    t.clock.advance(24 * 3_600_000 + 1000);
    expect((await token('192.0.2.1')).status).toBe(200);
    t.clock.advance(-(24 * 3_600_000 + 1000));
  });

  it('an address uploads 2 MB a day, whatever tokens it uses', async () => {
    const a = await token('192.0.2.3');
    const b = await token('192.0.2.3');
    expect((await upload(a.cookie, png(MB), '192.0.2.3')).status).toBe(200);
    expect((await upload(b.cookie, png(MB - 1000), '192.0.2.3')).status).toBe(200);
    const over = await upload(b.cookie, png(2000), '192.0.2.3');
    expect(over.status).toBe(422);
    expect(over.body.error.code).toBe('OUT_OF_STORAGE');
  });

  it('visitor uploads nothing uses are deleted after 24 hours; one a registration uses is kept', async () => {
    const tk = await token('192.0.2.4');
    const used = await upload(tk.cookie, png(5000), '192.0.2.4');
    const unused = await upload(tk.cookie, png(5000), '192.0.2.4');
    const usedName = used.body.fileName[0] as string;
    const unusedName = unused.body.fileName[0] as string;
    await t.db.query("UPDATE users SET profile = jsonb_build_object('image_profile', $1::text) WHERE username = 'student2'", [usedName]);
    expect(existsSync(join(t.dirs.uploads, unusedName))).toBe(true);
    await housekeeping(t.db, t.clock.now(), { uploadsDir: t.dirs.uploads, visitorUploadKeepHours: 24 });
    expect(existsSync(join(t.dirs.uploads, unusedName))).toBe(true);
    t.clock.advance(25 * 3_600_000);
    await housekeeping(t.db, t.clock.now(), { uploadsDir: t.dirs.uploads, visitorUploadKeepHours: 24 });
    t.clock.advance(-25 * 3_600_000);
    const rows = await t.db.query<{ file_name: string; deleted: boolean }>('SELECT file_name, deleted FROM uploads WHERE file_name = ANY($1::text[])', [[usedName, unusedName]]);
    expect(rows.rows.find((r) => r.file_name === unusedName)!.deleted).toBe(true);
    expect(rows.rows.find((r) => r.file_name === usedName)!.deleted).toBe(false);
    expect(existsSync(join(t.dirs.uploads, unusedName))).toBe(false);
    expect(existsSync(join(t.dirs.uploads, usedName))).toBe(true);
  });
});
