import type { SnapshotFrom } from 'xstate';
import type { paySolutionsMachine } from './pay-solutions.machine';
import { returnPhase, type ReturnPhase } from './return-states.selectors';

type S = SnapshotFrom<typeof paySolutionsMachine>;

/** preparing the payment, gone to the provider (or back, payment not confirmed yet), checking on return, finished. */
export const selectPaySolutionsPhase = (s: S): ReturnPhase => returnPhase(s);
