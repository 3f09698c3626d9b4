import { use } from 'react';
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
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import './payments.css';

let bankCodesOnce: Promise<BankCodeOption[]> | null = null;

/** The origin-bank options (getBankCodeOptions), read once per page when a transfer is notified. */
function bankCodeOptions(): Promise<BankCodeOption[]> {
  bankCodesOnce ??= api
    .GET('/api/payments/methods/banktreansfer')
    .then((r) => unwrap(r, 'getBankCodeOptions').data)
    .catch(() => {
      bankCodesOnce = null;
      return [];
    });
  return bankCodesOnce;
}

function BankTransfer({ actorRef, accounts, bankCodes }: { actorRef: AnyActorRef; accounts: readonly BankAccount[]; bankCodes?: readonly BankCodeOption[] }) {
  const codes = bankCodes ?? use(bankCodeOptions());
  return <BankTransferModal actorRef={actorRef as ActorRefFrom<typeof bankTransferMachine>} accounts={accounts} bankCodes={codes} />;
}

export interface PaymentHostProps {
  /** The payment method being paid with. */
  methodId: number;
  /** The running payment machine (the checkout's child). */
  actorRef: AnyActorRef;
  /** Bank transfer: destination accounts and origin bank options (read from the API when absent). */
  bankAccounts?: readonly BankAccount[];
  bankCodes?: readonly BankCodeOption[];
  /** 2C2P: true when the site posts the card form (method 3) instead of the payment link. */
  twoC2pCardForm?: boolean;
  /** The buyer closes the payment (close button, Escape): the flow leaves it, the order stays payable. */
  onLeave?: () => void;
}

/** Picks the panel or popup of the running payment (lazy-loaded with this whole folder). */
export function PaymentHost({ methodId, actorRef, bankAccounts = [], bankCodes, twoC2pCardForm = true, onLeave }: PaymentHostProps) {
  switch (methodId) {
    case BANK_TRANSFER:
      return <BankTransfer actorRef={actorRef} accounts={bankAccounts} bankCodes={bankCodes} />;
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
      return twoC2pCardForm ? <TwoC2pCardModal actorRef={actorRef as ActorRefFrom<typeof twoC2pCardMachine>} onLeave={onLeave} /> : <RedirectModal actorRef={actorRef} onLeave={onLeave} />;
    case TWOC2P_INSTALLMENT:
    case GBPRIME_CARD:
    case PAYSOLUTIONS:
      return <RedirectModal actorRef={actorRef} onLeave={onLeave} />;
    default:
      return null;
  }
}

export default PaymentHost;
