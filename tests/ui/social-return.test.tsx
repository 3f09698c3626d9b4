/**
 * Social logins bring the buyer back to the page they started from — the course page of the login
 * pop-up, the order list, /cart on the cart's login panel — and only to a path on our own origin.
 */
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { sameOriginPath } from '../../src/api/storage';
import { LoginForm, socialReturn } from '../../src/session/LoginForm';
import { SessionProvider } from '../../src/session';
import { scriptedCheckout } from '../support/ui-checkout';

function mountAt(path: string) {
  const s = scriptedCheckout({});
  const router = createMemoryRouter([{ path: '*', element: <LoginForm /> }], { initialEntries: [path] });
  render(
    <SessionProvider user={null} logic={s.session}>
      <RouterProvider router={router} />
    </SessionProvider>,
  );
}

const returns = async () => {
  const group = await screen.findByRole('group');
  return within(group)
    .getAllByRole('link')
    .map((a) => new URL(a.getAttribute('href')!, 'https://shop.example').searchParams.get('return'));
};

describe('social login return address', () => {
  it('the course page of the login pop-up (layout 4 course 6): back to that course page, query kept', async () => {
    mountAt('/course/6-ux-writing?ref=ads');
    expect(await returns()).toEqual(['/course/6-ux-writing?ref=ads', '/course/6-ux-writing?ref=ads', '/course/6-ux-writing?ref=ads']);
    // Google, Facebook, Line: each its own provider path
    const hrefs = within(screen.getByRole('group')).getAllByRole('link').map((a) => a.getAttribute('href')!.split('?')[0]);
    expect(hrefs).toEqual(['/api/auth/google', '/api/auth/facebook', '/api/auth/line']);
  });

  it('the cart login panel returns to /cart (spec)', async () => {
    mountAt('/cart');
    expect(new Set(await returns())).toEqual(new Set(['/cart']));
  });

  it('the order list\'s login form returns to the order list', async () => {
    mountAt('/myaccount/student/order');
    expect(new Set(await returns())).toEqual(new Set(['/myaccount/student/order']));
  });

  it('only same-origin paths: another host, a protocol-relative or backslash path, control characters fall back to /cart', () => {
    expect(socialReturn('/course/6')).toBe('/course/6');
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', '/course/6\n', '']) {
      expect(sameOriginPath(bad), JSON.stringify(bad)).toBeNull();
      expect(socialReturn(bad)).toBe('/cart');
    }
  });
});
