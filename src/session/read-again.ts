import { useEffect, useRef } from 'react';
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
