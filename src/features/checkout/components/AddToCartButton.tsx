import { useActorRef, useSelector } from '@xstate/react';
import { Link } from 'react-router';
import { selectAddResult, selectAdding } from '../../../../machines/cart/add-to-cart.selectors';
import { addToCartLogic } from '../../../api/add-to-cart';
import { actorOptions } from '../../../api/actor-options';
import { msg, t } from '../../../i18n/messages';
import { Button } from '../../../ui';

/**
 * "Add to cart" on a course or book (lists, related / same-teacher / bestseller cards, course and
 * product pages): renders the add-to-cart machine (it adds the course with its default plan to
 * the server cart, the visitor's or the student's) and says what happened, with a link to /cart.
 */
export function AddToCartButton({ courseId, name, qty = 1 }: { courseId: number; name: string; /** A book: the quantity chosen on its page. */ qty?: number }) {
  const ref = useActorRef(addToCartLogic, { ...actorOptions('addToCart'), input: { courseId, qty } });
  const adding = useSelector(ref, selectAdding);
  const result = useSelector(ref, selectAddResult);
  const text = {
    added: t('addedToCart', { name }),
    inCart: t('alreadyInCart', { name }),
    noPlan: t('noPlanToAdd', { name }),
    failed: msg('CART_FAIL'),
  };
  return (
    <div className="add-to-cart">
      <Button variant="secondary" loading={adding} onClick={() => ref.send({ type: 'cart.add', courseId, qty })} aria-label={`${t('addToCart')}: ${name}`} data-testid={`add-to-cart-${courseId}`}>
        {t('addToCart')}
      </Button>
      <p role="status" className="add-to-cart__status" data-testid={`add-to-cart-status-${courseId}`}>
        {result ? text[result] : ''}
        {result === 'added' || result === 'inCart' ? (
          <>
            {' '}
            <Link to="/cart">{t('viewCart')}</Link>
          </>
        ) : null}
      </p>
    </div>
  );
}
