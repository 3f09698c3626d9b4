/** The course and product lists: search form, cards (link, price, stock, add to cart), empty text, the loader's query. */
import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { components } from '../../generated/api';
import { CourseListPage, type CardListData } from '../../src/features/lists/CourseListPage';
import { ProductListPage } from '../../src/features/lists/ProductListPage';
import { listQuery } from '../../src/features/lists/list-query';
import { t } from '../../src/i18n/messages';

type CourseSummary = components['schemas']['CourseSummary'];

const card = (over: Partial<CourseSummary>): CourseSummary => ({ id: 1, name: 'Course', link_path: '1-course', course_type: 'Online', image: null, default_price: 99000, default_price_usd: null, ...over });

const AddToCart = ({ courseId, name }: { courseId: number; name: string }) => <button type="button" data-testid={`add-${courseId}`}>{name}</button>;

function mount(path: string, element: React.ReactNode, data: CardListData) {
  const router = createMemoryRouter([{ path: path.split('?')[0]!, element, loader: () => data, HydrateFallback: () => null }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
}

describe('course and product lists', () => {
  it('the course list: the search keeps the keyword, each card links to its page (a product to /product) with its add-to-cart', async () => {
    mount('/?keyword=math', <CourseListPage AddToCart={AddToCart} />, {
      currency: 'THB',
      courses: [card({ id: 3, name: 'Math', link_path: '3-math', image: '/m.png' }), card({ id: 12, name: 'Grammar book', link_path: '12-grammar', course_type: 'Product' })],
    });
    const list = await screen.findByTestId('course-list');
    expect((screen.getByRole('searchbox', { name: t('searchCourses') }) as HTMLInputElement).value).toBe('math');
    expect(within(list).getByRole('link', { name: 'Math' }).getAttribute('href')).toBe('/course/3-math');
    expect(within(list).getByRole('link', { name: 'Grammar book' }).getAttribute('href')).toBe('/product/12-grammar');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(within(list).getByTestId('add-12').textContent).toBe('Grammar book');
    expect(list.querySelector('img')?.getAttribute('loading')).toBe('eager');
  });

  it('the product list: stock left on each card; no products says so', async () => {
    mount('/products', <ProductListPage AddToCart={AddToCart} />, { currency: 'THB', courses: [card({ id: 12, name: 'Grammar book', link_path: '12-grammar', course_type: 'Product', available_qty: 4 })] });
    const list = await screen.findByTestId('product-list');
    expect(within(list).getByRole('link', { name: 'Grammar book' }).getAttribute('href')).toBe('/product/12-grammar');
    expect(within(list).getByText(t('stockLeft', { count: 4 })).className).toBe('ui-muted');
    expect((screen.getByRole('searchbox', { name: t('searchProducts') }) as HTMLInputElement).value).toBe('');
  });

  it('an empty list shows its text and no list', async () => {
    mount('/products', <ProductListPage AddToCart={AddToCart} />, { currency: 'THB', courses: [] });
    expect((await screen.findByText(t('noProducts'))).tagName).toBe('P');
    expect(screen.queryByTestId('product-list')).toBeNull();
  });

  it('the loaders ask for the keyword and filter of the address, only those given', () => {
    expect(listQuery(new Request('http://shop.test/?keyword=math&filter=new&x=1'))).toEqual({ keyword: 'math', filter: 'new' });
    expect(listQuery(new Request('http://shop.test/?keyword='))).toEqual({});
  });
});
