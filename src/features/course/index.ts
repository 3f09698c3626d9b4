export { CoursePage } from './CoursePage';
export { resolveLayout } from './layouts';
export { courseLoader, courseIdFromParam, canonicalPath, type CoursePageData } from './loader';
