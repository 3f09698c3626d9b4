import type { ComponentType } from 'react';
import type { AnyActorRef, ActorRefFrom } from 'xstate';
import type { bankTransferMachine } from '../../../machines/payments/bank-transfer.machine';
import { paymentMethodEntry, type PaymentView } from '../../../machines/payments/methods';
import type { omiseCardMachine } from '../../../machines/payments/omise-card.machine';
import type { omisePromptPayMachine } from '../../../machines/payments/omise-promptpay.machine';
import type { paypalMachine } from '../../../machines/payments/paypal.machine';
import type { scbQrMachine } from '../../../machines/payments/scb-qr.machine';
import type { twoC2pCardMachine } from '../../../machines/payments/two-c2p-card.machine';
import { BankTransferModal, type BankAccount, type BankCodeOption } from './BankTransferModal';
import { OmiseCardModal } from './OmiseCardModal';
import { PaypalModal } from './PaypalModal';
import { PromptPayModal, ScbQrModal } from './QrModals';
import { RedirectModal } from './RedirectModal';
import { TwoC2pCardModal } from './TwoC2pCardModal';
import './payments.css';

export interface PaymentHostProps {
  /** The payment method being paid with. */
  methodId: number;
  /** The running payment machine (the checkout's child). */
  actorRef: AnyActorRef;
  /** Bank transfer: destination accounts (method 1's bankList) and origin bank options (getBankCodeOptions), read by the page's loader. */
  bankAccounts?: readonly BankAccount[];
  bankCodes?: readonly BankCodeOption[];
  /** The buyer closes the payment (close button, Escape): the flow leaves it, the order stays payable. */
  onLeave?: () => void;
}

type ViewProps = Required<Pick<PaymentHostProps, 'actorRef' | 'bankAccounts' | 'bankCodes'>> & Pick<PaymentHostProps, 'onLeave'>;

/**
 * The view of each family (or of its variant), by the registry's `view` (machines/payments/methods.ts):
 * a new member of a family needs nothing here; a new family or variant fails the type until it has a view.
 */
const VIEWS = {
  bankTransfer: ({ actorRef, bankAccounts, bankCodes }) => (
    <BankTransferModal actorRef={actorRef as ActorRefFrom<typeof bankTransferMachine>} accounts={bankAccounts} bankCodes={bankCodes} />
  ),
  popupWallet: ({ actorRef }) => <PaypalModal actorRef={actorRef as ActorRefFrom<typeof paypalMachine>} />,
  qrWithDone: ({ actorRef, onLeave }) => <ScbQrModal actorRef={actorRef as ActorRefFrom<typeof scbQrMachine>} onLeave={onLeave} />,
  cardForm3ds: ({ actorRef }) => <OmiseCardModal actorRef={actorRef as ActorRefFrom<typeof omiseCardMachine>} />,
  qr: ({ actorRef, onLeave }) => <PromptPayModal actorRef={actorRef as ActorRefFrom<typeof omisePromptPayMachine>} onLeave={onLeave} />,
  hostedCardForm: ({ actorRef, onLeave }) => <TwoC2pCardModal actorRef={actorRef as ActorRefFrom<typeof twoC2pCardMachine>} onLeave={onLeave} />,
  hostedRedirect: ({ actorRef, onLeave }) => <RedirectModal actorRef={actorRef} onLeave={onLeave} />,
} satisfies Record<PaymentView, ComponentType<ViewProps>>;

/** Picks the panel or popup of the running payment (lazy-loaded with this whole folder). */
export function PaymentHost({ methodId, actorRef, bankAccounts = [], bankCodes = [], onLeave }: PaymentHostProps) {
  const View = VIEWS[paymentMethodEntry(methodId).view];
  return <View actorRef={actorRef} bankAccounts={bankAccounts} bankCodes={bankCodes} onLeave={onLeave} />;
}

export default PaymentHost;
