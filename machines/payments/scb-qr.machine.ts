/**
 * SCB QR code (method 4), spec section 4 "Bank QR", a member of the QR family (qr.family.ts) with
 * 'Done': initial, success (QR shown until its expiry, the server's expires_at — csExtExpiryTime
 * minutes), failure (Try again); an answer without a QR (status code other than 1000) is a
 * failure. The expiry clears the QR image. While the QR is shown the page moves on by itself (push
 * and poll). 'Done' reads the order: approved -> paid, rejected -> the order list, otherwise the
 * order list too (not the thank-you page: SCB's confirmation may still come; the list shows the
 * order waiting for payment). The modal counts down to `expiresAt` on the wall clock.
 */
import type { OrderIdBody, ScbQrCodeResponse } from '../shared/api';
import { qrMachine } from './qr.family';

export const scbQrMachine = qrMachine({
  id: 'scbQr',
  create: {
    src: 'createScbQrCode',
    input: (order): OrderIdBody => ({ orderId: order.orderId }),
    created: (answer: ScbQrCodeResponse) => answer.status.code === 1000 && answer.data.qrImage.length > 0,
    shown: (answer: ScbQrCodeResponse) => ({ qrImage: answer.data.qrImage as string | null, expiresAt: answer.data.expires_at }),
  },
  noQr: { qrImage: null as string | null },
  finish: true,
});
