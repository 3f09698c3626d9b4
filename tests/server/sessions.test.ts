// findSession reads the session and refreshes last_seen_at in one statement: the refresh happens
// for a live session whose last request is a minute old or more, never for a fresher one, an
// expired one or an idle one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from './support/app';
import { createSession, findSession } from '../../server/auth/sessions';

describe('findSession', () => {
  let t: TestApp;
  let userId: number;
  beforeAll(async () => {
    t = await testApp();
    userId = (await t.db.query<{ id: number }>("SELECT id FROM users WHERE username = 'student'")).rows[0]!.id;
  });
  afterAll(async () => t.close());

  /** last_seen_at of the student's sessions (the test keeps one). */
  const seen = async () => (await t.db.query<{ last_seen_at: Date }>('SELECT last_seen_at FROM sessions WHERE user_id = $1', [userId])).rows.map((r) => r.last_seen_at.getTime());

  it('refreshes last_seen_at at most once a minute, and only for a live session', async () => {
    await t.db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
    const start = new Date('2026-01-01T00:00:00Z');
    const { token } = await createSession(t.db, userId, 'student', start, 2);
    const at = (ms: number) => new Date(start.getTime() + ms);

    expect((await findSession(t.db, token, at(59_000), 30))?.id).toBe(userId);
    expect(await seen()).toEqual([start.getTime()]);

    expect((await findSession(t.db, token, at(60_000), 30))?.id).toBe(userId);
    expect(await seen()).toEqual([at(60_000).getTime()]);

    // Idle longer than the limit: no user, and no refresh that would revive it.
    expect(await findSession(t.db, token, at(60_000 + 31 * 60_000), 30)).toBeNull();
    expect(await seen()).toEqual([at(60_000).getTime()]);

    // Past expires_at (2 hours): no user, no refresh.
    expect(await findSession(t.db, token, at(3 * 3_600_000), 0)).toBeNull();
    expect(await seen()).toEqual([at(60_000).getTime()]);

    expect(await findSession(t.db, 'not-a-session', at(120_000), 30)).toBeNull();
  });
});
