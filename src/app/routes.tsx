import type { RouteObject } from 'react-router';
import { CourseListPage, courseListLoader } from '../features/lists/CourseListPage';
import { NotFoundPage } from './NotFoundPage';

export const routes: RouteObject[] = [
  { path: '/', loader: courseListLoader, element: <CourseListPage />, errorElement: <NotFoundPage /> },
  { path: '*', element: <NotFoundPage /> },
];
