import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { cardReturnMachine } from './card-return.machine';
import type { twoC2pCardMachine } from './two-c2p-card.machine';

type S = SnapshotFrom<typeof cardReturnMachine>;

/** The 2C2P card payment the return page runs (its spinner says what it does); undefined once it ended. */
export const selectCardPayment = (s: S): ActorRefFrom<typeof twoC2pCardMachine> | undefined =>
  s.children.twoC2pCard as ActorRefFrom<typeof twoC2pCardMachine> | undefined;
