/**
 * Paths the app fails today, by `machine: path title`, each with why. They still run (test.fail):
 * the suite goes red when one of them starts passing, so this list is emptied as the app is fixed.
 * A reason starting with 'flaky: ' marks a path that fails only sometimes: it is not run (fixme).
 */
export const KNOWN_BROKEN: Record<string, string> = {
  'omiseCard: ✓getOmiseCardPublicKey:ok → card.tokenized → ✓chargeOmiseCard:3ds → payment.resume → ✓getOrder:unpaid → ⏱pollInterval → ✓getOrder:approved ⇒ paid':
    'flaky: after Fail on the 3-D Secure page the order is read (unpaid); the shop then approves it in the back office; the next poll reads approved in some runs, in others the machine is not seen leaving awaitingConfirmation within 20 s (passed 1 of 2 runs)',
  'omiseCard: ✓getOmiseCardPublicKey:ok → card.tokenized → ✓chargeOmiseCard:3ds → payment.resume → ✓getOrder:rejected → ⏱redirectDelay ⇒ failedRedirect':
    'flaky: the shop rejects the order while the buyer is on the 3-D Secure page; after Fail the buyer is back, but opening the course page again does not resume the saved flow (the machine stays in awaitingAuthorization, the order is never read)',
  'omisePromptPay: ✓createOmisePromptPay:ok → payment.resume → ⏱qrExpiry → payment.retry → ✓createOmisePromptPay:ok → ⇠watchOrderStatus:approved ⇒ paid':
    'after a refresh while the QR is shown (restored flow), the QR never expires: the page clock moved a day forward leaves the machine in awaitingScan (without the refresh the same move reaches expired)',
  'gbPrimePromptPay: ✓createGbPrimePromptPay:ok → payment.resume → ⏱qrExpiry → payment.retry → ✓createGbPrimePromptPay:ok → ⇠watchOrderStatus:approved ⇒ paid':
    'as for Omise PromptPay: after a refresh while the QR is shown, the QR never expires',
  'twoC2pCard: card.encrypted → ✓create2c2pCardRequest:ok → payment.resume → ✓getOrder:approved ⇒ paid':
    'flaky: after Pass on the 2C2P 3-D Secure page the gateway sends the buyer to the order list (order approved); opening the course page again does not resume the saved flow (the machine stays in awaitingResult)',
  'twoC2pCard: card.encrypted → ✓create2c2pCardRequest:ok → payment.resume → ✓getOrder:rejected ⇒ leftForOrders':
    'flaky: the shop rejects the order while the buyer is on the 2C2P 3-D Secure page; after Fail, opening the course page again does not always resume the saved flow (the machine stays in awaitingResult); failed as expected in 3 CI rehearsals on 2026-11-23, passed in the 4th',
  'twoC2pCard: card.encrypted → ✓create2c2pCardRequest:ok → payment.resume → ✗getOrder:network → payment.resume → ✓getOrder:approved ⇒ paid':
    'flaky: one GET /private/orders/{id} failing on the network after the 3-D Secure page: the machine never reaches reconciling on the course page (stays in awaitingResult); the same path with the read answering passes; it passed once in three runs',
  'omisePromptPay: ✓createOmisePromptPay:ok → ⏱qrExpiry → payment.retry → ✗createOmisePromptPay:network → payment.retry → ✓createOmisePromptPay:ok → ⇠watchOrderStatus:approved ⇒ paid':
    'flaky: since the issue-9 merge, after an expired QR, a failed new QR and a second new QR that the bank app pays, the machine sometimes stays in awaitingScan (push listening, poll waiting) for 20 s instead of reaching paid (failed in 1 of 2 CI rehearsals on 2026-11-23, passed in the other)',
  'gbPrimePromptPay: ✓createGbPrimePromptPay:ok → ⏱qrExpiry → payment.retry → ✗createGbPrimePromptPay:network → payment.retry → ✓createGbPrimePromptPay:ok → ⇠watchOrderStatus:approved ⇒ paid':
    'flaky: as for Omise PromptPay, after expired → failed → new QR paid by the bank app, the machine sometimes stays in awaitingScan instead of reaching paid (failed in both CI rehearsals on 2026-11-23)',
  'twoC2pCard: card.encrypted → ✓create2c2pCardRequest:ok → payment.resume → ✓getOrder:unpaid → payment.resume → ✓getOrder:approved ⇒ paid':
    'flaky: the second return to the course page after the 2C2P 3-D Secure page does not always resume the saved flow (stays in awaitingResult); failed in the CI rehearsal, passed in earlier runs',
};
