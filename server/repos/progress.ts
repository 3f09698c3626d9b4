/** Students' learning progress (lecture_progress) and the lectures it is counted against. */
import type { Queryable } from '../db/index';

export async function lectureCount(q: Queryable, courseId: number): Promise<number> {
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM lectures WHERE course_id = $1', [courseId])).rows[0]?.n ?? 0;
}

/** The lectures of the course the student completed, by id. */
export async function completedLectureIds(q: Queryable, userId: number, courseId: number): Promise<number[]> {
  const r = await q.query<{ lecture_id: number }>('SELECT lecture_id FROM lecture_progress WHERE user_id = $1 AND course_id = $2 AND is_complete ORDER BY lecture_id', [userId, courseId]);
  return r.rows.map((x) => x.lecture_id);
}

export async function completedLectureCount(q: Queryable, userId: number, courseId: number): Promise<number> {
  return (await q.query<{ n: number }>('SELECT count(*)::int AS n FROM lecture_progress WHERE user_id = $1 AND course_id = $2 AND is_complete', [userId, courseId])).rows[0]?.n ?? 0;
}

/** The lecture of the course the student viewed last, or null. */
export async function lastViewedLecture(q: Queryable, userId: number, courseId: number): Promise<{ section_id: number; lecture_id: number } | null> {
  const r = await q.query<{ section_id: number; lecture_id: number }>(
    'SELECT section_id, lecture_id FROM lecture_progress WHERE user_id = $1 AND course_id = $2 ORDER BY updated_at DESC, lecture_id DESC LIMIT 1',
    [userId, courseId],
  );
  return r.rows[0] ?? null;
}
