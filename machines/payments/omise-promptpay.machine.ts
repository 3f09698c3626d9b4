/**
 * Omise PromptPay (method 9), a member of the QR family (qr.family.ts): the server creates the
 * charge (createOmisePromptPay) and answers the QR's image URL and its expires_at.
 */
import type { OmiseChargeRequest, OmisePromptPayResponse } from '../shared/api';
import { qrMachine } from './qr.family';

export type { OrderStatusPushed } from './qr.family';

export const omisePromptPayMachine = qrMachine({
  id: 'omisePromptPay',
  create: {
    src: 'createOmisePromptPay',
    input: (order): OmiseChargeRequest => ({ orderId: order.orderId, email: order.email, name: order.name, total_amount: order.amount }),
    shown: (answer: OmisePromptPayResponse) => ({ qrImageUrl: answer.QrcodeUrl.image.download_uri as string | null, expiresAt: answer.expires_at }),
  },
  noQr: { qrImageUrl: null as string | null },
  finish: false,
});
