import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { accessCountdownMachine } from '../../../../machines/countdown/access-countdown.machine';
import { selectAccessExpired, selectAccessUnlimited, selectTimeLeft } from '../../../../machines/countdown/access-countdown.selectors';
import { actorOptions } from '../../../api/actor-options';
import type { CountdownRecord } from '../purchase-data';
import { t } from '../../../i18n/messages';

function two(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * Access time left of an owned course (countdown machine, ~30 ticks a second). The page's data read
 * again (a renewal approved, a login) brings a new record: the countdown starts again from it.
 */
export function AccessCountdown({ record }: { record: CountdownRecord }) {
  const ref = useActorRef(accessCountdownMachine, { ...actorOptions('accessCountdown'), input: { record, now: Date.now() } });
  const shown = useRef(record);
  useEffect(() => {
    if (shown.current === record) return;
    shown.current = record;
    ref.send({ type: 'countdown.update', record, now: Date.now() });
  }, [ref, record]);
  const left = useSelector(ref, selectTimeLeft, (a, b) => a?.seconds === b?.seconds && a?.minutes === b?.minutes && a?.days === b?.days);
  const unlimited = useSelector(ref, selectAccessUnlimited);
  const expired = useSelector(ref, selectAccessExpired);
  return (
    <p className="access-countdown" data-testid="access-countdown">
      <span>{t('accessLeft')} </span>
      {unlimited ? t('accessUnlimited') : expired ? t('accessExpired') : left ? t('accessDaysClock', { days: left.days, clock: `${two(left.hours)}:${two(left.minutes)}:${two(left.seconds)}` }) : ''}
    </p>
  );
}
