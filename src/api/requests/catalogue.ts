/** Catalogue, settings and how-to-buy requests (tag catalogue, settings). */
import { api } from '../client';
import { request } from '../request';

export const catalogueRequests = {
  listCourses: request('listCourses', (input: { keyword?: string; filter?: string } | undefined, signal) =>
    api.GET('/public/courses', { params: { query: input ?? {} }, signal }),
  ),
  getCourse: request('getCourse', (input: { id: number }, signal) => api.GET('/public/courses/{id}/{number}', { params: { path: { id: input.id, number: 0 } }, signal })),
  listProducts: request('listProducts', (input: { keyword?: string; filter?: string } | undefined, signal) =>
    api.GET('/public/product', { params: { query: input ?? {} }, signal }),
  ),
  getProduct: request('getProduct', (input: { id: number }, signal) => api.GET('/public/products/{id}/{number}', { params: { path: { id: input.id, number: 0 } }, signal })),
  getCourseByLinkPath: request('getCourseByLinkPath', (input: { link_path: string }, signal) => api.POST('/public/course/cate/pathname', { body: input, signal })),
  getCourseVideoPlaylist: request('getCourseVideoPlaylist', (input: { courseId: number }, signal) =>
    api.GET('/public/course/videoplaylist/{courseId}', { params: { path: { courseId: input.courseId } }, signal }),
  ),
  getSiteSettings: request('getSiteSettings', (_input: void, signal) => api.GET('/api/setting/site/into/1', { signal })),
  getHowToBuy: request('getHowToBuy', (_input: void, signal) => api.GET('/public/payments/howtobuy', { signal })),
};
