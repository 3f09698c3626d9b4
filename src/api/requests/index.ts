/**
 * Every operation the app calls, by area, as plain calls (`request.ts`): what route loaders and
 * pages read with. The machines get the same requests as actors (`../actors`).
 */
export { cartRequests } from './cart';
export { catalogueRequests } from './catalogue';
export { orderRequests } from './orders';
export { paymentRequests } from './payments';
export { progressRequests } from './progress';
export { sessionRequests } from './session';
export { studentRequests } from './students';
