/**
 * Family "hosted redirect": the server prepares the provider's page for the order, the flow is
 * persisted and the browser goes there (a link, or a hidden form posted); on return
 * (`payment.resume` after the restore) the order is read (return-states.ts): approved -> paid,
 * rejected -> the member's `rejected` state, otherwise it keeps waiting and says what the read found.
 * Members: 2C2P payment page (10), GB Prime Pay card (11), PaySolutions (13), 2C2P card gateway (3).
 *
 * `hostedMachine(config)` builds one method's machine. What differs between members is configuration:
 * - `create`: the state that asks the server (its name), the actor (its operationId), its request
 *   from the context, and, when given, the check an answer must pass (else it is a failure);
 * - `handOver`: how the buyer leaves (`by`) — `navigate` to a URL from the answer, `postForm` of a
 *   form from the answer, or `readOrderThenPost` (the order is read first, `readingOrder`: an order
 *   already paid is not paid twice, one the shop rejected goes to the order list, else the form is
 *   posted with what the read found; the context then has `answer`, kept until the read);
 * - `cardEntry`: a card form in the page comes first (`starting` -> `enteringCard`, events
 *   `card.encrypted` / `card.gatewayError`) unless the input brings the encrypted card; the card
 *   is forgotten once the signed form left or the request failed (it is never persisted);
 * - `waiting`: the state name while the buyer is away; `rejected`: where a rejected order goes;
 * - `ends`: `toOrders` (a failure goes to the order list) or `staying` (`notPaid`: the buyer stays).
 * Every member has `reconciling`, `failed`, `paid`, `leftForOrders` and the events
 * `payment.resume`, `payment.abandon`.
 */
import { assign, setup, type UnknownActorLogic } from 'xstate';
import { providedByApp } from '../shared/provided';
import type { OrderIdBody, TwoC2pCardRequest } from '../shared/api';
import { effectDefaults, type FormPost } from '../shared/effects';
import { HOSTED_ENDS, orderReadGuards, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentInput, type PaymentOrder, finalStateOutput, paymentTypes } from './payment';
import { returnStates, type ReturnCheck } from './return-states';
import { builtOnFirstUse } from '../shared/built-on-first-use';

/** The card as 2C2P's script encrypted it (the card form, or the card-payment return page's query). */
export type EncryptedCard = Omit<TwoC2pCardRequest, 'orderId'>;

export type HostedEvent =
  | { type: 'payment.resume' }
  | { type: 'payment.abandon' }
  | { type: 'card.encrypted'; card: EncryptedCard }
  | { type: 'card.gatewayError'; code: string; description: string };

export type HostedContext<TExtra extends object> = {
  order: PaymentOrder;
  /** What the last read on the buyer's return found (return-states.ts). */
  returned: ReturnCheck;
} & TExtra;

/** How the buyer is handed to the provider once the server answered. */
export type HandOver<TAnswer> =
  | { by: 'navigate'; url: (answer: TAnswer) => string }
  | { by: 'postForm'; form: (answer: TAnswer) => FormPost }
  | { by: 'readOrderThenPost'; form: (answer: TAnswer, order: OrderRead) => FormPost };
type By = HandOver<unknown>['by'];

type Ends = keyof typeof HOSTED_ENDS;

/** What a member of the family says about itself. */
export interface HostedMethodConfig<
  Id extends string,
  Create extends string,
  Src extends string,
  Waiting extends string,
  Rejected extends 'leftForOrders' | 'failed',
  End extends Ends,
  Card extends boolean,
  H extends By,
  TAnswer,
  TRequest,
  TInput extends PaymentInput,
  TExtra extends object,
> {
  /** The machine id (the checkout's invoke id). */
  id: Id;
  /** The context beyond the order and the return check, from the machine's input. */
  context: (input: TInput) => TExtra;
  create: {
    state: Create;
    src: Src;
    input: (context: HostedContext<TExtra>) => TRequest;
    /** When given, an answer it refuses is a failure. */
    accepted?: (answer: TAnswer) => boolean;
  };
  handOver: HandOver<TAnswer> & { by: H };
  /** A card form in the page before the server is asked (the context then has `card`). */
  cardEntry: Card;
  waiting: Waiting;
  rejected: Rejected;
  ends: End;
}

/** The states of a member, as its machine's type sees them (snapshot.matches is typed by it). */
type HostedStates<Create extends string, Waiting extends string, End extends Ends, Card extends boolean, H extends By> = {
  [K in
    | Create
    | Waiting
    | 'reconciling'
    | keyof (typeof HOSTED_ENDS)[End]
    | (Card extends true ? 'starting' | 'enteringCard' : never)
    | (H extends 'readOrderThenPost' ? 'readingOrder' : never)]: object;
};

const answerOf = ({ event }: { event: { output: unknown } }) => event.output;

/**
 * One hosted method's machine, built from its configuration. Its actors are the creating actor
 * (the method's operationId) and `getOrder`; the app provides them with `.provide`
 * (src/api/payment-logic.ts).
 */
export function hostedMachine<
  const Id extends string,
  const Create extends string,
  const Src extends string,
  const Waiting extends string,
  const Rejected extends 'leftForOrders' | 'failed',
  const End extends Ends,
  const Card extends boolean,
  const H extends By,
  TAnswer,
  TRequest,
  TInput extends PaymentInput,
  TExtra extends object,
>(config: HostedMethodConfig<Id, Create, Src, Waiting, Rejected, End, Card, H, TAnswer, TRequest, TInput, TExtra>) {
  const { id, create, handOver, cardEntry, waiting, rejected, ends } = config;
  const forget = cardEntry ? ['forgetCard'] : [];
  const ho = handOver as HandOver<TAnswer>;
  const leave =
    ho.by === 'navigate'
      ? { type: 'navigate', params: ({ event }: { event: { output: TAnswer } }) => ({ to: ho.url(event.output), external: true }) }
      : ho.by === 'postForm'
        ? { type: 'postForm', params: ({ event }: { event: { output: TAnswer } }) => ho.form(event.output) }
        : null;
  const away = leave ? { target: waiting, actions: [...forget, 'persistSnapshot', leave] } : { target: 'readingOrder', actions: { type: 'keepAnswer', params: answerOf } };
  const states: Record<string, unknown> = {};
  if (cardEntry) {
    states.starting = { always: [{ guard: 'hasEncryptedCard', target: create.state }, { target: 'enteringCard' }] };
    states.enteringCard = {
      on: {
        'card.encrypted': { target: create.state, actions: { type: 'keepCard', params: ({ event }: { event: { card: EncryptedCard } }) => event.card } },
        'card.gatewayError': {
          actions: {
            type: 'notify',
            params: ({ event }: { event: { code: string; description: string } }) => ({
              kind: 'error',
              topic: 'fail',
              title: PAYMENT_FAILED_NOTICE.title,
              message: `${event.description} (${event.code})`,
            }),
          },
        },
      },
    };
  }
  states[create.state] = {
    invoke: {
      id: create.src,
      src: create.src,
      input: ({ context }: { context: HostedContext<TExtra> }) => create.input(context),
      onDone: create.accepted ? [{ ...away, guard: { type: 'answerAccepted', params: answerOf } }, { target: 'failed' }] : away,
      onError: cardEntry ? { target: 'failed', actions: 'forgetCard' } : { target: 'failed' },
    },
  };
  if (ho.by === 'readOrderThenPost') {
    const form = ho.form;
    states.readingOrder = {
      invoke: {
        id: 'getOrder',
        src: 'getOrder',
        input: ({ context }: { context: HostedContext<TExtra> }) => ({ orderId: context.order.orderId }),
        onDone: [
          { guard: { type: 'approved', params: answerOf }, target: 'paid' },
          { guard: { type: 'shopRejected', params: answerOf }, target: 'leftForOrders' },
          {
            target: waiting,
            actions: [
              'persistSnapshot',
              {
                type: 'postForm',
                params: ({ context, event }: { context: { answer: unknown }; event: { output: OrderRead } }) =>
                  form(context.answer as TAnswer, event.output),
              },
            ],
          },
        ],
        onError: { target: 'failed' },
      },
    };
  }
  Object.assign(states, returnStates(waiting, rejected), HOSTED_ENDS[ends]);
  const definition = {
    id,
    context: ({ input }: { input: TInput }) => ({
      order: input.order,
      returned: null,
      ...config.context(input),
    }),
    initial: cardEntry ? 'starting' : create.state,
    states,
    output: finalStateOutput,
  };
  return builtOnFirstUse(() =>
    setup({
      types: paymentTypes<HostedContext<TExtra>, HostedEvent, TInput>(),
      // The creating actor's name is the member's: typed by name only here; payment-logic.ts
      // provides it by the registry's entry and the model tests run every member.
      actors: {
        [create.src]: providedByApp<TAnswer, TRequest>(create.src),
        getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
      } as Record<string, UnknownActorLogic>,
      guards: {
        ...orderReadGuards,
        answerAccepted: (_, answer: TAnswer) => create.accepted?.(answer) ?? true,
        hasEncryptedCard: ({ context }) => (context as { card?: EncryptedCard | null }).card != null,
        /**
         * Before the form is posted only the shop's own rejection stops the payment: an earlier
         * attempt that failed (declined, cancelled) is why the buyer pays again, not a reason to stay.
         */
        shopRejected: (_, order: OrderRead) => order.data.payment_status === 'rejected',
      },
      actions: {
        ...effectDefaults,
        noteReturn: assign((_, returned: ReturnCheck) => ({ returned }) as Partial<HostedContext<TExtra>>),
        keepAnswer: assign((_, answer: unknown) => ({ answer }) as unknown as Partial<HostedContext<TExtra>>),
        keepCard: assign((_, card: EncryptedCard) => ({ card }) as unknown as Partial<HostedContext<TExtra>>),
        forgetCard: assign(() => ({ card: null }) as unknown as Partial<HostedContext<TExtra>>),
      },
      // The definition is checked against the member's shape here, where its names are known.
    }).createMachine(
      definition as unknown as {
        initial: Card extends true ? 'starting' : Create;
        states: HostedStates<Create, Waiting, End, Card, H>;
        context: typeof definition.context;
      },
    ),
  );
}
