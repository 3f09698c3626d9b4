import type { SnapshotFrom } from 'xstate';
import type { orderWatchMachine } from './order-watch.machine';

/** True while the server's pushes reach the page (else it shows what it read last). */
export const selectWatchingOrders = (s: SnapshotFrom<typeof orderWatchMachine>): boolean => s.matches('watching');
