export { CoursePage } from './CoursePage';
export { courseLoader, courseIdFromParam, canonicalPath, type CoursePageData } from './loader';
export type { PaymentSlot } from './components/PurchasePanel';
