/**
 * The checkout part of the page, a chunk of its own (machines, domain rules, zod forms): the
 * course renders first, this arrives with the purchase data.
 */
import { useRevalidator } from 'react-router';
import { useStartAgainAfterLogout } from '../../session/start-again';
import { CheckoutProvider, type CheckoutLogic } from './checkout-actor';
import { AccessCountdown } from './components/AccessCountdown';
import { PurchasePanel, type PaymentSlot } from './components/PurchasePanel';
import type { LayoutId } from './purchase-data';
import type { PurchasePageData } from './purchase-data';
import { CheckoutContext } from './checkout-actor';
import { ReportShownCurrency } from './shown-currency';

function CartCurrency() {
  const currency = CheckoutContext.useSelector((s) => s.context.cart.currency);
  return <ReportShownCurrency currency={currency} />;
}

export interface PurchaseAreaProps {
  data: PurchasePageData;
  layout: LayoutId;
  PaymentHost: PaymentSlot;
  embedded: boolean;
  logic?: CheckoutLogic;
}

export default function PurchaseArea({ data, layout, PaymentHost, embedded, logic }: PurchaseAreaProps) {
  const revalidator = useRevalidator();
  // The server's session ended: the purchase data is read again (a visitor's) and the checkout starts again from it.
  const restarts = useStartAgainAfterLogout(() => revalidator.revalidate());
  return (
    <CheckoutProvider key={`${data.course.id}-${restarts}`} data={data} layout={layout} logic={logic}>
      <CartCurrency />
      {data.purchase.countdown ? <AccessCountdown record={data.purchase.countdown} /> : null}
      <PurchasePanel data={data} PaymentHost={PaymentHost} embedded={embedded} />
    </CheckoutProvider>
  );
}
