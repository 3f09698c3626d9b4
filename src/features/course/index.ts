export { CoursePage } from './CoursePage';
export { CheckoutContext, checkoutInput, type CheckoutLogic } from './checkout-actor';
export { resolveLayout } from './layouts';
export { courseLoader, courseIdFromParam, canonicalPath, type CoursePageData } from './loader';
export type { PaymentSlot } from './components/PurchasePanel';
