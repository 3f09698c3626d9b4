// The root layout's session: the page renders before XState is loaded; the session actor
// starts after the first commit; views that need it wait for it (Suspense), the header does not.
import { act, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { selectLoggedIn } from '../../machines/session/session.selectors';
import { SessionContext, useOptionalSessionRef, type SessionActorRef } from '../../src/session/context';
import { DeferredSessionProvider } from '../../src/session/deferred';

describe('DeferredSessionProvider', () => {
  it('renders its children at once, then starts the session actor and lets waiting views render', async () => {
    const seen: string[] = [];
    // React reports a hook used in one render and not the next (here `use` on the start's promise)
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    function Header() {
      const ref = useOptionalSessionRef();
      const text = ref ? `header: actor ${String(ref.getSnapshot().value)}` : 'header: no actor yet';
      seen.push(text);
      return <p data-testid="header">{text}</p>;
    }
    function Waiting() {
      seen.push('needs: waiting');
      return <p data-testid="needs">waiting</p>;
    }
    function NeedsActor() {
      const loggedIn = SessionContext.useSelector(selectLoggedIn);
      const ref = SessionContext.useActorRef();
      return <p data-testid="needs">{`${loggedIn ? 'in' : 'out'} ${ref.id}`}</p>;
    }
    await act(async () => {
      render(
        <DeferredSessionProvider user={null}>
          <Header />
          <Suspense fallback={<Waiting />}>
            <NeedsActor />
          </Suspense>
        </DeferredSessionProvider>,
      );
    });
    // The session module is transformed on the fly the first time: give it time.
    await waitFor(() => expect(screen.getByTestId('needs').textContent).toBe('out session'), { timeout: 15_000 });
    expect(screen.getByTestId('header').textContent).toBe('header: actor signedOut');
    // The first render had no actor: the header showed the page's user, the other view waited.
    expect(seen.slice(0, 2)).toEqual(['header: no actor yet', 'needs: waiting']);
    const reported = errors.mock.calls.map((c) => String(c[0]));
    errors.mockRestore();
    expect(reported).toEqual([]);
  }, 20_000);

  it('stops the actor when unmounted', async () => {
    let seen: SessionActorRef | null = null;
    function Spy() {
      seen = useOptionalSessionRef();
      return null;
    }
    let view: ReturnType<typeof render> | undefined;
    await act(async () => {
      view = render(
        <DeferredSessionProvider user={null}>
          <Spy />
        </DeferredSessionProvider>,
      );
    });
    await waitFor(() => expect(seen).not.toBeNull(), { timeout: 15_000 });
    const ref = seen as unknown as SessionActorRef;
    expect(ref.getSnapshot().status).toBe('active');
    view?.unmount();
    expect(ref.getSnapshot().status).toBe('stopped');
  }, 20_000);
});
