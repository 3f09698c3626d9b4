import type { AnyActorRef, ActorRefFrom } from 'xstate';
import { BANK_TRANSFER, GBPRIME_CARD, GBPRIME_PROMPTPAY, OMISE_CARD, OMISE_PROMPTPAY, PAYPAL, PAYSOLUTIONS, SCB_QR, TWOC2P_CARD, TWOC2P_INSTALLMENT } from '../../../domain/payment-methods';
import type { bankTransferMachine } from '../../../machines/payments/bank-transfer.machine';
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

/** Picks the panel or popup of the running payment (lazy-loaded with this whole folder). */
export function PaymentHost({ methodId, actorRef, bankAccounts = [], bankCodes = [], onLeave }: PaymentHostProps) {
  switch (methodId) {
    case BANK_TRANSFER:
      return <BankTransferModal actorRef={actorRef as ActorRefFrom<typeof bankTransferMachine>} accounts={bankAccounts} bankCodes={bankCodes} />;
    case PAYPAL:
      return <PaypalModal actorRef={actorRef as ActorRefFrom<typeof paypalMachine>} />;
    case SCB_QR:
      return <ScbQrModal actorRef={actorRef as ActorRefFrom<typeof scbQrMachine>} onLeave={onLeave} />;
    case OMISE_CARD:
      return <OmiseCardModal actorRef={actorRef as ActorRefFrom<typeof omiseCardMachine>} />;
    case OMISE_PROMPTPAY:
    case GBPRIME_PROMPTPAY:
      return <PromptPayModal actorRef={actorRef as ActorRefFrom<typeof omisePromptPayMachine>} onLeave={onLeave} />;
    case TWOC2P_CARD:
      return <TwoC2pCardModal actorRef={actorRef as ActorRefFrom<typeof twoC2pCardMachine>} onLeave={onLeave} />;
    case TWOC2P_INSTALLMENT:
    case GBPRIME_CARD:
    case PAYSOLUTIONS:
      return <RedirectModal actorRef={actorRef} onLeave={onLeave} />;
    default:
      return null;
  }
}

export default PaymentHost;
