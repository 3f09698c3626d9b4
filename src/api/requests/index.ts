/**
 * Every operation the app calls, by area, as plain calls (`request.ts`): what route loaders and
 * pages read with. The machines get the same requests as actors (`../actors`, which imports this
 * index). Loaders and pages import the area's own module (`./cart`, `./catalogue`, ...), not this
 * index: the bundler places a module by the imports that reach it, used or not, so an import
 * through here put every area (the payment requests too) in every page's first load.
 */
export { cartRequests } from './cart';
export { catalogueRequests } from './catalogue';
export { orderRequests } from './orders';
export { paymentRequests } from './payments';
export { progressRequests } from './progress';
export { sessionRequests } from './session';
export { studentRequests } from './students';
