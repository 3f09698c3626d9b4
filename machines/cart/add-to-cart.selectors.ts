import type { SnapshotFrom } from 'xstate';
import type { AddToCartResult, addToCartMachine } from './add-to-cart.machine';

type S = SnapshotFrom<typeof addToCartMachine>;

/** The button shows a spinner while the course is added. */
export const selectAdding = (s: S): boolean => s.matches('adding');
/** What the last press found (the status line, kept while adding again), null before the first. */
export const selectAddResult = (s: S): AddToCartResult => s.context.result;
