import type { SnapshotFrom } from 'xstate';
import type { twoC2pLinkMachine } from './two-c2p-link.machine';
import { returnPhase, type ReturnPhase } from './return-states.selectors';

type S = SnapshotFrom<typeof twoC2pLinkMachine>;

/** preparing the payment, gone to the provider (or back, payment not confirmed yet), checking on return, finished. */
export const selectTwoC2pLinkPhase = (s: S): ReturnPhase => returnPhase(s);
