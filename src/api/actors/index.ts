/**
 * Every real actor, by area; pass the ones a machine declares with machine.provide({ actors }).
 * Loaders call the same operations with `.call(input, signal)` (one API layer for both).
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

