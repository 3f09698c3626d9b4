/** Progress and countdown requests (tag progress). */
import { api } from '../client';
import { request } from '../request';

export const progressRequests = {
  getStudentCourseProgress: request('getStudentCourseProgress', (input: { userId: number; courseId: number }, signal) =>
    api.GET('/private/progress/student/{userId}/course/{courseId}', { params: { path: input }, signal }),
  ),
  getLastViewedLecture: request('getLastViewedLecture', (input: { userId: number; courseId: number }, signal) =>
    api.GET('/private/progress/lasttime/{userId}/course/{courseId}', { params: { path: input }, signal }),
  ),
  getCourseCountdown: request('getCourseCountdown', (input: { courseId: number }, signal) =>
    api.GET('/private/course/countdowntime/{courseId}', { params: { path: { courseId: input.courseId } }, signal }),
  ),
};
