/**
 * Every real actor, by area; pass the ones a machine declares with machine.provide({ actors }).
 * `allActors` is the union for machines that invoke children (the checkout provides its
 * payment children's actors through their own provide).
 */
import { cartActors } from './cart';
import { catalogueActors } from './catalogue';
import { orderActors } from './orders';
import { paymentActors } from './payments';
import { progressActors } from './progress';
import { realtimeActors } from './realtime';
import { sessionActors } from './session';
import { studentActors } from './students';

export { cartActors, catalogueActors, orderActors, paymentActors, progressActors, realtimeActors, sessionActors, studentActors };

export const allActors = {
  ...catalogueActors,
  ...sessionActors,
  ...studentActors,
  ...cartActors,
  ...orderActors,
  ...progressActors,
  ...paymentActors,
  ...realtimeActors,
};
