/** Learning progress, last viewed lecture and the access countdown of an owned course (tag progress). */
import type { Handlers } from '../openapi/router';
import { ApiError } from '../errors';
import { findCourse } from '../repos/catalogue';
import { accessPeriods } from '../orders/access';
import { completedLectureCount, completedLectureIds, lastViewedLecture, lectureCount } from '../repos/progress';
import type { FastifyRequest } from 'fastify';
import { MSG } from '../../domain/messages';

/** A student reads only their own progress: the path's userId must be the session's user. */
function ownUser(req: FastifyRequest, userId: number): void {
  if (req.user!.id !== userId) throw new ApiError(403, 'FORBIDDEN', "You can only read your own progress");
}

export const progressHandlers: Handlers = {
  async getStudentCourseProgress(req, _reply, ctx) {
    ownUser(req, req.params.userId);
    const course = await findCourse(ctx.db, req.params.courseId);
    if (!course) throw new ApiError(404, 'NOT_FOUND', MSG.COURSE_NOT_FOUND);
    const n = await lectureCount(ctx.db, course.id);
    const completed = await completedLectureIds(ctx.db, req.params.userId, course.id);
    return {
      success: true,
      data: {
        user_id: req.params.userId,
        course_id: course.id,
        percent: n === 0 ? 0 : Math.round((completed.length / n) * 10000) / 100,
        completed_lecture_ids: completed,
        total_lectures: n,
      },
    };
  },

  async getLastViewedLecture(req, _reply, ctx) {
    ownUser(req, req.params.userId);
    const course = await findCourse(ctx.db, req.params.courseId);
    if (!course) throw new ApiError(404, 'NOT_FOUND', MSG.COURSE_NOT_FOUND);
    const row = await lastViewedLecture(ctx.db, req.params.userId, course.id);
    return { success: true, data: { section_id: row?.section_id ?? null, lectures_id: row?.lecture_id ?? null } };
  },

  async getCourseCountdown(req, _reply, ctx) {
    const userId = req.user!.id;
    const periods = await accessPeriods(ctx.db, userId, req.params.courseId);
    const cur = periods.at(-1);
    if (!cur) throw new ApiError(404, 'NOT_FOUND', 'You have no approved order for this course');
    const p = cur.plan;
    const now = ctx.clock.now().getTime();
    const read = await completedLectureCount(ctx.db, userId, req.params.courseId);
    const courseDays = p.plan_type === 'Period' ? (p.term === -1 ? -1 : p.term_unit === 'Day(s)' ? (p.term ?? 0) : 0) : p.plan_type === 'Actual' ? 0 : -1;
    return {
      success: true,
      data: {
        planType: p.plan_type,
        startDateTime: cur.start.toISOString(),
        courseDays,
        term: p.term !== null && p.term >= 0 ? p.term : null,
        termUnit: p.term_unit,
        term2: p.term_2,
        termUnit2: p.term_unit_2,
        isTermUnit2: (p.term_2 ?? 0) > 0,
        countDownTime: cur.end === null ? null : Math.max(0, cur.end - now),
        progressTime: Math.max(0, now - cur.start.getTime()),
        orderID: cur.orderId,
        finishDateTime: cur.end === null ? null : new Date(cur.end).toISOString(),
        readLecture: read,
      },
    };
  },
};
