/**
 * Every real actor, by area; pass the ones a machine declares with machine.provide({ actors }).
 * Each is the promise actor of the request of the same name (`../requests`), which loaders call
 * directly: one API layer for both.
 */
import { cartRequests, catalogueRequests, orderRequests, paymentRequests, progressRequests, sessionRequests, studentRequests } from '../requests';
import { actorsOf } from './call';
import { realtimeActors } from './realtime';

export const cartActors = actorsOf(cartRequests);
export const catalogueActors = actorsOf(catalogueRequests);
export const orderActors = actorsOf(orderRequests);
export const paymentActors = actorsOf(paymentRequests);
export const progressActors = actorsOf(progressRequests);
export const sessionActors = actorsOf(sessionRequests);
export const studentActors = actorsOf(studentRequests);
export { realtimeActors };
