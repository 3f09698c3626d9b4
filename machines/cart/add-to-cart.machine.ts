/**
 * "Add to cart" on a course or book (lists, cards, course and product pages): the course (or
 * `qty` copies of a book) goes into the server cart with its default plan (addToShopCart: the
 * visitor's or the student's cart). The view sends `cart.add` with the course and the quantity it
 * shows at the press, and renders the state: `idle` with
 * what the last press found (`added`, `inCart`, `noPlan`, `failed`; nothing before a press), or
 * `adding`. A failure is logged and told; another press tries again.
 */
import { assign, setup } from 'xstate';
import { effectDefaults } from '../shared/effects';
import { providedByApp } from '../shared/provided';

export interface AddToCartInput {
  courseId: number;
  /** A book: the quantity chosen on its page (1 for a course). */
  qty: number;
}

/** What addToShopCart answers: added, or why not (already in the cart, no plan this viewer may buy). */
export type AddToCartAnswer = { added: true } | { added: false; reason: 'inCart' | 'noPlan' };

export type AddToCartResult = 'added' | 'inCart' | 'noPlan' | 'failed' | null;

export interface AddToCartContext extends AddToCartInput {
  /** What the last press found; null before the first. */
  result: AddToCartResult;
}

/** A press: the course and the quantity shown at that moment (a book's quantity can change after the page mounted). */
export type AddToCartEvent = { type: 'cart.add'; courseId: number; qty: number };

export const addToCartMachine = setup({
  types: { context: {} as AddToCartContext, events: {} as AddToCartEvent, input: {} as AddToCartInput },
  actors: {
    addToShopCart: providedByApp<AddToCartAnswer, AddToCartInput>('addToShopCart'),
  },
  actions: {
    log: effectDefaults.log,
    noteResult: assign((_, result: AddToCartResult) => ({ result })),
    notePress: assign((_, press: AddToCartInput) => ({ courseId: press.courseId, qty: press.qty })),
  },
}).createMachine({
  id: 'addToCart',
  context: ({ input }) => ({ courseId: input.courseId, qty: input.qty, result: null }),
  initial: 'idle',
  states: {
    idle: { on: { 'cart.add': { target: 'adding', actions: { type: 'notePress', params: ({ event }) => ({ courseId: event.courseId, qty: event.qty }) } } } },
    adding: {
      invoke: {
        id: 'addToShopCart',
        src: 'addToShopCart',
        input: ({ context }) => ({ courseId: context.courseId, qty: context.qty }),
        onDone: { target: 'idle', actions: { type: 'noteResult', params: ({ event }) => (event.output.added ? 'added' : event.output.reason) } },
        onError: {
          target: 'idle',
          actions: [{ type: 'log', params: ({ event }) => ({ message: '[cart] add failed', detail: event.error }) }, { type: 'noteResult', params: 'failed' }],
        },
      },
    },
  },
});
