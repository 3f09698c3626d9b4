/**
 * Kept out of src/session/index.ts: only the purchase chunk uses it (the course and product pages'
 * checkout), so it loads with that chunk, not with every page's entry.
 */
import { useEffect, useRef, useState } from 'react';
import { selectSessionLive } from '../../machines/session/session.selectors';
import { useLatest } from '../ui/latest';
import { SessionContext } from './context';
/**
 * A page whose data was read for the student logged in when it loaded (the course and product
 * pages' purchase data: their orders and owned courses, member plans): when the server's session
 * ends (the header's logout, the sign-out or the session-expired modal), `readAgain` (the route's
 * revalidation) runs, and the number returned changes once it is done: the key that starts the
 * page's checkout again from the visitor's data, so the next press on pay asks who buys instead of
 * ordering for a student who is gone. A login changes nothing here (an order that waited for it
 * goes on in the same checkout).
 */
export function useStartAgainAfterLogout(readAgain: () => Promise<void>): number {
  const live = SessionContext.useSelector(selectSessionLive);
  const again = useLatest(readAgain);
  const [restarts, setRestarts] = useState(0);
  const was = useRef(live);
  useEffect(() => {
    const ended = was.current && !live;
    was.current = live;
    if (!ended) return;
    let gone = false;
    void again
      .current()
      .catch(() => undefined)
      .then(() => {
        if (!gone) setRestarts((n) => n + 1);
      });
    return () => {
      gone = true;
    };
  }, [live, again]);
  return restarts;
}
