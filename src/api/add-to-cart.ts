/**
 * The "Add to cart" machine with the app's actor: the cart's code (shop-cart.ts) is loaded on the
 * first press, not in the course page's first load; a failure is logged to the console.
 */
import { fromPromise } from 'xstate';
import { consoleLog } from './console-log';
import { addToCartMachine, type AddToCartAnswer, type AddToCartInput } from '../../machines/cart/add-to-cart.machine';

export const addToCartLogic = addToCartMachine.provide({
  actors: {
    addToShopCart: fromPromise<AddToCartAnswer, AddToCartInput>(async ({ input }) => {
      const { addToShopCart } = await import('./shop-cart');
      return addToShopCart(input.courseId, input.qty);
    }),
  },
  actions: {
    log: consoleLog(),
  },
});
