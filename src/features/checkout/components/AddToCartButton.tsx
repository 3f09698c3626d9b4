import { startTransition, useActionState } from 'react';
import { Link } from 'react-router';
import { msg, t } from '../../../i18n/messages';
import { Button } from '../../../ui';

type AddState = { kind: 'idle' | 'added' | 'inCart' | 'noPlan' | 'failed' };

/**
 * "Add to cart" on a course or book (lists, related / same-teacher / bestseller cards, course and
 * product pages): adds it with its default plan to the server cart (the visitor's or the
 * student's) and says what happened, with a link to /cart.
 */
export function AddToCartButton({ courseId, name, qty = 1 }: { courseId: number; name: string; /** A book: the quantity chosen on its page. */ qty?: number }) {
  const [state, add, pending] = useActionState<AddState, void>(async () => {
    try {
      // The cart's code is loaded on the first press (not in the course page's first load).
      const { addToShopCart } = await import('../../../api/shop-cart');
      const r = await addToShopCart(courseId, qty);
      return { kind: r.added ? 'added' : r.reason };
    } catch (error) {
      console.warn('[cart] add failed', error);
      return { kind: 'failed' };
    }
  }, { kind: 'idle' });
  const text = {
    idle: '',
    added: t('addedToCart', { name }),
    inCart: t('alreadyInCart', { name }),
    noPlan: t('noPlanToAdd', { name }),
    failed: msg('CART_FAIL'),
  }[state.kind];
  return (
    <div className="add-to-cart">
      <Button variant="secondary" loading={pending} onClick={() => startTransition(() => add())} aria-label={`${t('addToCart')}: ${name}`} data-testid={`add-to-cart-${courseId}`}>
        {t('addToCart')}
      </Button>
      <p role="status" className="add-to-cart__status" data-testid={`add-to-cart-status-${courseId}`}>
        {text}
        {state.kind === 'added' || state.kind === 'inCart' ? (
          <>
            {' '}
            <Link to="/cart">{t('viewCart')}</Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
