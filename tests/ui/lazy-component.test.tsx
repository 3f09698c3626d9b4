// src/ui/lazy-component.tsx: a chunk's component shown without suspending — the fallback until the
// chunk is in, then the component; at once on every later mount; a chunk that fails goes to the
// error boundary and is asked for again by the next mount.
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { lazyComponent } from '../../src/ui/lazy-component';

function Hello({ name }: { name: string }) {
  return <p>hello {name}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { error: String(error) };
  }
  override render() {
    return this.state.error ? <p role="alert">{this.state.error}</p> : this.props.children;
  }
}

function gate<T>() {
  let open: (value: T) => void = () => {};
  let fail: (error: unknown) => void = () => {};
  const promise = new Promise<T>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

describe('lazyComponent', () => {
  it('shows the fallback until the chunk is in, then the component with its props; loads once; a later mount renders at once', async () => {
    const chunk = gate<typeof Hello>();
    const load = vi.fn(() => chunk.promise);
    const Lazy = lazyComponent(load, <p>loading</p>);
    // no Suspense boundary above: it never suspends (React.lazy would throw here without one)
    const first = render(<Lazy name="first" />);
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => chunk.open(Hello));
    expect(screen.getByText('hello first')).toBeTruthy();
    expect(screen.queryByText('loading')).toBeNull();
    first.unmount();
    render(<Lazy name="again" />);
    // the first render of a later mount is the component itself: no fallback, no wait
    expect(screen.getByText('hello again')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('a chunk that does not load goes to the error boundary, and the next mount asks for it again', async () => {
    const chunks = [gate<typeof Hello>(), gate<typeof Hello>()];
    let call = 0;
    const Lazy = lazyComponent(() => chunks[call++]!.promise, <p>loading</p>);
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const first = render(
        <Boundary>
          <Lazy name="x" />
        </Boundary>,
      );
      await act(async () => chunks[0]!.fail(new Error('chunk failed')));
      expect(screen.getByRole('alert').textContent).toContain('chunk failed');
      first.unmount();
    } finally {
      quiet.mockRestore();
    }
    render(<Lazy name="second" />);
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => chunks[1]!.open(Hello));
    expect(screen.getByText('hello second')).toBeTruthy();
    expect(call).toBe(2);
  });

  it('unmounted before the chunk is in: nothing is set on the unmounted component, and the chunk is kept for the next mount', async () => {
    const chunk = gate<typeof Hello>();
    const Lazy = lazyComponent(() => chunk.promise, <p>loading</p>);
    const quiet = vi.spyOn(console, 'error');
    const first = render(<Lazy name="gone" />);
    first.unmount();
    await act(async () => chunk.open(Hello));
    expect(quiet).not.toHaveBeenCalled();
    quiet.mockRestore();
    render(<Lazy name="next" />);
    expect(screen.getByText('hello next')).toBeTruthy();
  });
});
