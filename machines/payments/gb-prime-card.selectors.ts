import type { SnapshotFrom } from 'xstate';
import type { gbPrimeCardMachine } from './gb-prime-card.machine';
import { returnPhase, type ReturnPhase } from './return-states.selectors';

type S = SnapshotFrom<typeof gbPrimeCardMachine>;

/** preparing the payment, gone to the provider (or back, payment not confirmed yet), checking on return, finished. */
export const selectGbPrimeCardPhase = (s: S): ReturnPhase => returnPhase(s);
