/** Catalogue, settings and how-to-buy actors (tag catalogue, settings). */
import { api } from '../client';
import { operation } from './call';

export const catalogueActors = {
  listCourses: operation('listCourses', (input: { keyword?: string; filter?: string } | undefined, signal) =>
    api.GET('/public/courses', { params: { query: input ?? {} }, signal }),
  ),
  getCourse: operation('getCourse', (input: { id: number }, signal) => api.GET('/public/courses/{id}/{number}', { params: { path: { id: input.id, number: 0 } }, signal })),
  listProducts: operation('listProducts', (input: { keyword?: string; filter?: string } | undefined, signal) =>
    api.GET('/public/product', { params: { query: input ?? {} }, signal }),
  ),
  getProduct: operation('getProduct', (input: { id: number }, signal) => api.GET('/public/products/{id}/{number}', { params: { path: { id: input.id, number: 0 } }, signal })),
  getCourseByLinkPath: operation('getCourseByLinkPath', (input: { link_path: string }, signal) => api.POST('/public/course/cate/pathname', { body: input, signal })),
  getCourseVideoPlaylist: operation('getCourseVideoPlaylist', (input: { courseId: number }, signal) =>
    api.GET('/public/course/videoplaylist/{courseId}', { params: { path: { courseId: input.courseId } }, signal }),
  ),
  getSiteSettings: operation('getSiteSettings', (_input: void, signal) => api.GET('/api/setting/site/into/1', { signal })),
  getHowToBuy: operation('getHowToBuy', (_input: void, signal) => api.GET('/public/payments/howtobuy', { signal })),
};
