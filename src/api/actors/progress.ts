/** Progress and countdown actors (tag progress). */
import { api } from '../client';
import { operation } from './call';

export const progressActors = {
  getStudentCourseProgress: operation('getStudentCourseProgress', (input: { userId: number; courseId: number }, signal) =>
    api.GET('/private/progress/student/{userId}/course/{courseId}', { params: { path: input }, signal }),
  ),
  getLastViewedLecture: operation('getLastViewedLecture', (input: { userId: number; courseId: number }, signal) =>
    api.GET('/private/progress/lasttime/{userId}/course/{courseId}', { params: { path: input }, signal }),
  ),
  getCourseCountdown: operation('getCourseCountdown', (input: { courseId: number }, signal) =>
    api.GET('/private/course/countdowntime/{courseId}', { params: { path: { courseId: input.courseId } }, signal }),
  ),
};
