import { useEffect, useRef, useState } from 'react';
import { selectSessionLive } from '../../machines/session/session.selectors';
import { useLatest } from '../ui/latest';
import { SessionContext } from './context';

/**
 * A page whose data depends on who is logged in (the cart, the order list, the thank-you page):
 * `readAgain` runs when the server's session starts or ends. A logout counts once the server has
 * answered it (selectSessionLive, decision 0037): read at the click, the page would get the
 * student's data while the session is still on, and a failed logout changes nothing. Returns
 * whether the server's session is on.
 */
export function useReadAgainOnLogInOut(readAgain: () => void): boolean {
  const live = SessionContext.useSelector(selectSessionLive);
  const again = useLatest(readAgain);
  const was = useRef(live);
  useEffect(() => {
    if (live !== was.current) {
      was.current = live;
      again.current();
    }
  }, [live, again]);
  return live;
}

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
