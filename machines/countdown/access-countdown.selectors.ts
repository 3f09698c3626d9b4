import type { SnapshotFrom } from 'xstate';
import { splitDuration } from '../../domain/plans';
import type { accessCountdownMachine } from './access-countdown.machine';

type S = SnapshotFrom<typeof accessCountdownMachine>;

/** Days, hours, minutes, seconds left; null when access is unlimited. */
export function selectTimeLeft(s: S): { days: number; hours: number; minutes: number; seconds: number } | null {
  return s.context.remainingMs === null ? null : splitDuration(s.context.remainingMs);
}

export const selectAccessExpired = (s: S): boolean => s.matches('expired');
export const selectAccessUnlimited = (s: S): boolean => s.matches('unlimited');
