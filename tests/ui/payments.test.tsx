import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { bankTransferMachine } from '../../machines/payments/bank-transfer.machine';
import { omiseCardMachine } from '../../machines/payments/omise-card.machine';
import { omisePromptPayMachine, type OrderStatusPushed } from '../../machines/payments/omise-promptpay.machine';
import type { PaymentOrder } from '../../machines/payments/payment';
import { paypalMachine } from '../../machines/payments/paypal.machine';
import { scbQrMachine } from '../../machines/payments/scb-qr.machine';
import { twoC2pCardMachine } from '../../machines/payments/two-c2p-card.machine';
import { BankTransferModal } from '../../src/features/payments/BankTransferModal';
import { OmiseCardModal } from '../../src/features/payments/OmiseCardModal';
import { PaypalModal } from '../../src/features/payments/PaypalModal';
import { approvalWindow } from '../../src/api/paypal-window';
import { PromptPayModal, ScbQrModal } from '../../src/features/payments/QrModals';
import { TwoC2pCardModal } from '../../src/features/payments/TwoC2pCardModal';
import { apiError, effectSpies, pushChannel, scripted } from '../support/ui-actors';
import { t } from '../../src/i18n/messages';
import { MSG } from '../../domain/messages';

function order(methodId: PaymentOrder['methodId'], amount = 150000): PaymentOrder {
  return { orderId: 501, orderToken: 'tok-501', amount, currency: 'THB', methodId, email: 'somchai@example.com', name: 'สมชาย ใจดี', tel: '0812345678' };
}

function orderRead(payment_status: string) {
  return { success: true, data: { id: 501, price: 150000, discount: 0, shipping_fee: 0, withholding_price: 0, email: 'a@b.co', tel: null, order_token: 'tok-501', payment_status } };
}

const nextYear = String(new Date().getUTCFullYear() + 1);

describe('Omise card popup', () => {
  it('validates, tokenises through Omise.js (never our API) and sends only the token; 3-D Secure leaves the page', async () => {
    const user = userEvent.setup();
    const fx = effectSpies();
    const s = scripted({
      getOmiseCardPublicKey: { ok: { success: true, publicKey: 'pkey_test_1' } },
      chargeOmiseCard: { ok: { success: true, status: 'pending', chargesDetails: { last_digits: '4242', bank: null }, charges: { id: 'chrg_1', authorize_uri: 'https://pay.example/3ds' } } },
    });
    const actor = createActor(omiseCardMachine.provide({ actors: s.actors, actions: fx.actions }), { input: { order: order(8) } }).start();
    const tokenize = vi.fn(async () => 'tokn_test_abc');
    render(<OmiseCardModal actorRef={actor} tokenize={tokenize} />);
    const dialog = await screen.findByRole('dialog', { name: 'ชำระเงินด้วยบัตรเครดิต/เดบิต' });
    const pay = await within(dialog).findByRole('button', { name: /ชำระเงิน ฿1,500\.00/ });
    await user.click(pay);
    expect((await within(dialog).findByText('กรุณากรอกหมายเลขบัตร')).textContent).toBe('กรุณากรอกหมายเลขบัตร');
    expect(tokenize).not.toHaveBeenCalled();
    const number = within(dialog).getByLabelText(/หมายเลขบัตร/);
    expect(number.getAttribute('aria-invalid')).toBe('true');

    await user.type(within(dialog).getByLabelText(/ชื่อบนบัตร/), 'SOMCHAI JAIDEE');
    await user.type(number, '4242 4242-4242 4242 99');
    // written as people write it, grouped as typed, 16 digits at most; the token gets the digits
    expect((number as HTMLInputElement).value).toBe('4242 4242 4242 4242');
    expect(number.getAttribute('autocomplete')).toBe('cc-number');
    expect(number.hasAttribute('maxlength')).toBe(false);
    await user.type(within(dialog).getByLabelText(/เดือนหมดอายุ/), '12');
    await user.type(within(dialog).getByLabelText(/ปีหมดอายุ/), nextYear);
    const cvv = within(dialog).getByLabelText(/CVV/) as HTMLInputElement;
    expect(cvv.type).toBe('password');
    await user.type(cvv, '123');
    await user.click(pay);
    await waitFor(() => expect(s.inputsOf('chargeOmiseCard').length).toBe(1));
    expect(tokenize).toHaveBeenCalledWith('pkey_test_1', { name: 'SOMCHAI JAIDEE', number: '4242424242424242', expiration_month: 12, expiration_year: Number(nextYear), security_code: '123' });
    const charge = s.inputsOf('chargeOmiseCard')[0] as Record<string, unknown>;
    expect(charge.omise_token).toBe('tokn_test_abc');
    expect(JSON.stringify(charge)).not.toContain('4242424242424242');
    await waitFor(() => expect(fx.navigations).toEqual([{ to: 'https://pay.example/3ds', external: true }]));
    expect(fx.persisted).toBe(1);
    await screen.findByText('กำลังไปยังหน้ายืนยันตัวตน 3-D Secure…');
  });

  it('shows the vault refusal on the form and stays', async () => {
    const user = userEvent.setup();
    const s = scripted({ getOmiseCardPublicKey: { ok: { success: true, publicKey: 'pkey_test_1' } }, chargeOmiseCard: { ok: {} } });
    const actor = createActor(omiseCardMachine.provide({ actors: s.actors, actions: effectSpies().actions }), { input: { order: order(8) } }).start();
    render(<OmiseCardModal actorRef={actor} tokenize={async () => Promise.reject(new Error('number is invalid'))} />);
    const dialog = await screen.findByRole('dialog');
    await user.type(await within(dialog).findByLabelText(/ชื่อบนบัตร/), 'A B');
    await user.type(within(dialog).getByLabelText(/หมายเลขบัตร/), '4242424242424242');
    await user.type(within(dialog).getByLabelText(/เดือนหมดอายุ/), '12');
    await user.type(within(dialog).getByLabelText(/ปีหมดอายุ/), nextYear);
    await user.type(within(dialog).getByLabelText(/CVV/), '123');
    await user.click(within(dialog).getByRole('button', { name: /ชำระเงิน/ }));
    await within(dialog).findByText('number is invalid');
    expect(actor.getSnapshot().value).toBe('enteringCard');
    expect(s.inputsOf('chargeOmiseCard')).toEqual([]);
  });

  it('Escape closes the form (card.close) and the flow ends toward the order list', async () => {
    const user = userEvent.setup();
    const s = scripted({ getOmiseCardPublicKey: { ok: { success: true, publicKey: 'pkey_test_1' } } });
    const actor = createActor(omiseCardMachine.provide({ actors: s.actors }), { input: { order: order(8) } }).start();
    render(<OmiseCardModal actorRef={actor} tokenize={async () => 'x'} />);
    await screen.findByLabelText(/หมายเลขบัตร/);
    await user.keyboard('{Escape}');
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ result: 'toOrders' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

/** An expiry `minutes` from now, as the server dates a QR. */
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();

describe('SCB QR modal', () => {
  it('shows the QR with its countdown; Done reads the order and closes when approved', async () => {
    const user = userEvent.setup();
    const s = scripted({
      createScbQrCode: { ok: { status: { code: 1000, description: 'Success' }, data: { qrRawData: 'x', qrImage: 'iVBORw0KGgo=', csExtExpiryTime: 15, expires_at: inMinutes(15) } } },
      getOrder: { ok: orderRead('approved') },
    });
    const actor = createActor(scbQrMachine.provide({ actors: s.actors, actions: effectSpies().actions }), { input: { order: order(4) } }).start();
    render(<ScbQrModal actorRef={actor} />);
    const img = (await screen.findByRole('img', { name: 'QR Code สำหรับชำระเงิน' })) as HTMLImageElement;
    expect(img.src).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(img.width).toBe(300);
    expect(screen.getByTestId('qr-countdown').textContent).toBe('QR Code หมดอายุใน 15:00');
    expect(screen.queryByRole('button', { name: t('tryAgain') })).toBeNull();
    await user.click(screen.getByRole('button', { name: t('done') }));
    await waitFor(() => expect(actor.getSnapshot().output).toEqual({ result: 'paid' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('failure shows Try again, which asks for a new QR', async () => {
    const user = userEvent.setup();
    const s = scripted({
      createScbQrCode: [{ ok: { status: { code: 9000, description: 'fail' }, data: { qrRawData: '', qrImage: '', csExtExpiryTime: 15, expires_at: inMinutes(15) } } }, { ok: { status: { code: 1000, description: 'ok' }, data: { qrRawData: 'x', qrImage: 'AAAA', csExtExpiryTime: 1, expires_at: inMinutes(1) } } }],
    });
    const actor = createActor(scbQrMachine.provide({ actors: s.actors, actions: effectSpies().actions }), { input: { order: order(4) } }).start();
    render(<ScbQrModal actorRef={actor} />);
    const retry = await screen.findByRole('button', { name: t('tryAgain') });
    expect((screen.getByRole('button', { name: t('done') }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(retry);
    await screen.findByTestId('qr-countdown');
    expect(s.inputsOf('createScbQrCode')).toEqual([{ orderId: 501 }, { orderId: 501 }]);
  });
});

describe('PromptPay modal', () => {
  it('shows the QR and moves on by itself when the order is paid (push)', async () => {
    const channel = pushChannel<OrderStatusPushed, { orderId: number }, { type: 'never' }>();
    const s = scripted({
      createOmisePromptPay: { ok: { success: true, QrcodeUrl: { image: { download_uri: 'http://localhost/qr.png' } }, charge_id: 'chrg_2', expires_at: new Date(Date.now() + 600_000).toISOString() } },
      getOrder: { ok: orderRead('notYetReceived') },
    });
    const actor = createActor(omisePromptPayMachine.provide({ actors: { ...s.actors, watchOrderStatus: channel.logic }, actions: effectSpies().actions }), { input: { order: order(9) } }).start();
    render(<PromptPayModal actorRef={actor} />);
    const img = (await screen.findByRole('img', { name: 'QR Code สำหรับชำระเงิน' })) as HTMLImageElement;
    expect(img.src).toBe('http://localhost/qr.png');
    screen.getByText('สแกน QR Code เพื่อชำระเงิน หน้านี้จะไปต่อเองเมื่อชำระเงินสำเร็จ');
    act(() => channel.push({ type: 'order.statusChanged', orderId: 501, payment_status: 'approved' }));
    await waitFor(() => expect(actor.getSnapshot().output).toEqual({ result: 'paid' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    actor.stop();
  });
});

describe('Bank transfer notification modal', () => {
  const accounts = [{ id: 1, account_id: '123-4-56789-0', account_name: 'บริษัท โรงเรียนออนไลน์ จำกัด', bank: 'KBANK' as const, bank_name: 'ธนาคารกสิกรไทย', prompt_pay_image: null }];
  const bankCodes = [{ banktransfer_value: 'SCB', banktransfer_nameth: 'ธนาคารไทยพาณิชย์' }];

  function start(canNotifyLater: boolean, answers = {}) {
    const fx = effectSpies();
    const s = scripted({
      uploadFile: { ok: { success: true, fileName: ['slip-1.png'] } },
      createPaymentReportPrivate: { ok: { success: true, orderPaymentId: 77, order_token: 'tok-501' } },
      sendPaymentOrderEmail: { ok: { success: true } },
      ...answers,
    });
    const actor = createActor(bankTransferMachine.provide({ actors: s.actors, actions: fx.actions }), {
      input: { order: order(1), slipRequired: true, canNotifyLater, defaults: { contact_name: 'สมชาย ใจดี', tel: '0812345678', transfer_datetime: '2026-01-31', time: '10:15:00' } },
    }).start();
    render(<BankTransferModal actorRef={actor} accounts={accounts} bankCodes={bankCodes} />);
    return { actor, fx, s };
  }

  it('checks in the spec order, uploads one slip (button hidden after), files the report', async () => {
    const user = userEvent.setup();
    const { actor, fx, s } = start(true);
    const dialog = screen.getByRole('dialog', { name: 'แจ้งชำระเงิน' });
    within(dialog).getByRole('button', { name: 'ไว้แจ้งทีหลัง' });
    await user.click(within(dialog).getByRole('button', { name: 'แจ้งชำระเงิน' }));
    expect(fx.notices[0]).toMatchObject({ title: MSG.INVALID_DATA_TITLE, message: MSG.SLIP_REQUIRED });
    within(dialog).getByText('กรุณาอัพโหลดหลักฐานการโอนเงิน');

    await user.upload(within(dialog).getByTestId('slip-input'), new File(['png'], 'slip.png', { type: 'image/png' }));
    await within(dialog).findByText('slip-1.png');
    expect(within(dialog).queryByRole('button', { name: /อัพโหลดรูปภาพ/ })).toBeNull();

    // Prefilled with the order's amount (1,500.00 THB), not a placeholder to copy.
    expect((within(dialog).getByLabelText(/จำนวนเงินที่โอน/) as HTMLInputElement).value).toBe('1500.00');
    await user.selectOptions(within(dialog).getByLabelText(/ธนาคารต้นทาง/), 'SCB');
    await user.click(within(dialog).getByRole('radio', { name: /ธนาคารกสิกรไทย 123-4-56789-0/ }));
    await user.click(within(dialog).getByRole('button', { name: 'แจ้งชำระเงิน' }));
    await waitFor(() => expect(actor.getSnapshot().output).toEqual({ result: 'pending' }));
    expect(s.inputsOf('createPaymentReportPrivate')[0]).toMatchObject({ order_id: 501, bank_code: 'SCB', bank_account: '123-4-56789-0', transfer_amount: 150000, slip: 'slip-1.png', transfer_datetime: '2026-01-31', time: '10:15:00' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('hides Later for a layout-4 buyer without registration', () => {
    start(false);
    expect(screen.queryByRole('button', { name: 'ไว้แจ้งทีหลัง' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'ปิด' })).toBeNull();
  });

  it('a file that is not an image is refused with the spec text', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const { fx, s } = start(true);
    await user.upload(screen.getByTestId('slip-input'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(fx.notices[0]).toMatchObject({ message: MSG.FILE_TYPE_NOT_ALLOWED });
    expect(s.inputsOf('uploadFile')).toEqual([]);
  });
});

describe('PayPal modal', () => {
  // The window watcher polls: every actor a test started is stopped with it.
  const started: { stop: () => void }[] = [];
  afterEach(() => started.splice(0).forEach((a) => a.stop()));
  /** A fake approval window and the machine's window actions and watcher around it (the app's own code, src/api/paypal-window.ts). */
  function paypalWith(outcomes: Parameters<typeof scripted>[0], opened: 'window' | 'blocked' = 'window') {
    const s = scripted(outcomes);
    const fx = effectSpies();
    const win = { closed: false, location: { href: 'about:blank' }, close: vi.fn(() => void (win.closed = true)) };
    const openWindow = vi.fn(() => (opened === 'window' ? (win as unknown as Window) : null));
    const w = approvalWindow({ openWindow, here: () => window.location.href, checkoutUrl: '/sandbox/paypal/checkoutnow', pollMs: 20 });
    const actor = createActor(paypalMachine.provide({ actors: { ...s.actors, ...w.actors }, actions: { ...fx.actions, ...w.actions } }), { input: { order: order(2) } }).start();
    started.push(actor);
    render(<PaypalModal actorRef={actor} />);
    const dialog = screen.getByRole('dialog', { name: 'ชำระเงินด้วย PayPal' });
    return { s, fx, win, openWindow, actor, dialog };
  }
  const PP_ORDER = { ok: { success: true, paypal_order_id: 'PP-1' } };
  /** A request still waiting for its answer. */
  const never = () => new Promise(() => {});

  it('creates the PayPal order on the click, approves through the PayPal window and captures', async () => {
    const user = userEvent.setup();
    const { s, win, openWindow, actor, dialog } = paypalWith({
      createPaypalOrder: PP_ORDER,
      capturePaypalOrder: { ok: { success: true, status: 'COMPLETED', order_token: 'tok-501' } },
      deleteOrder: { ok: { success: true } },
    });
    await user.click(within(dialog).getByRole('button', { name: 'ชำระเงินด้วย PayPal' }));
    // Opened inside the click (no popup blocker), pointed at PayPal once the order exists.
    expect(openWindow).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(win.location.href).toBe('/sandbox/paypal/checkoutnow?token=PP-1'));
    // The sandbox's approval page is on our own origin: the window stays open while the buyer approves.
    win.location.href = `${window.location.origin}/sandbox/paypal/checkoutnow?token=PP-1`;
    await new Promise((r) => setTimeout(r, 200));
    expect(actor.getSnapshot().matches('awaitingApproval')).toBe(true);
    expect(win.close).not.toHaveBeenCalled();
    win.location.href = `${window.location.origin}/paypal/return?token=PP-1&PayerID=PAYER9`;
    await waitFor(() => expect(actor.getSnapshot().output).toEqual({ result: 'paid' }), { timeout: 2000 });
    expect(s.inputsOf('capturePaypalOrder')).toEqual([{ paypalOrderId: 'PP-1', orderId: 501 }]);
    expect(win.close).toHaveBeenCalled();
  });

  it('a capture PayPal leaves pending: the buyer is told, nothing is deleted, closing hands over (pending)', async () => {
    const user = userEvent.setup();
    const { s, win, actor, dialog } = paypalWith({
      createPaypalOrder: { ok: { success: true, paypal_order_id: 'PP-2' } },
      capturePaypalOrder: { ok: { success: true, status: 'PENDING', order_token: 'tok-501' } },
      deleteOrder: { ok: { success: true } },
    });
    await user.click(within(dialog).getByRole('button', { name: 'ชำระเงินด้วย PayPal' }));
    await waitFor(() => expect(win.location.href).toBe('/sandbox/paypal/checkoutnow?token=PP-2'));
    win.location.href = `${window.location.origin}/paypal/return?token=PP-2&PayerID=PAYER9`;
    const status = await within(dialog).findByTestId('paypal-capture-pending', {}, { timeout: 2000 });
    expect(status.textContent).toBe(t('paypalCapturePending'));
    expect(status.getAttribute('role')).toBe('status');
    expect(s.inputsOf('deleteOrder')).toEqual([]);
    expect(within(dialog).queryByTestId('paypal-button')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: t('paypalCapturePendingOk') }));
    expect(actor.getSnapshot().output).toEqual({ result: 'pending' });
  });

  it('a declined capture: the reason in the modal, the failure notice, the PayPal button again and another way; nothing left Processing', async () => {
    const user = userEvent.setup();
    const { s, fx, win, actor, dialog } = paypalWith({
      createPaypalOrder: PP_ORDER,
      capturePaypalOrder: { error: apiError(422, 'PAYMENT_FAILED', 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง', { paypal_status: 'NOT_CAPTURED', issue: 'INSTRUMENT_DECLINED' }) },
    });
    await user.click(within(dialog).getByTestId('paypal-button'));
    await waitFor(() => expect(win.location.href).toBe('/sandbox/paypal/checkoutnow?token=PP-1'));
    win.location.href = `${window.location.origin}/paypal/return?token=PP-1&PayerID=PAYER9`;
    const problem = await within(dialog).findByTestId('paypal-problem', {}, { timeout: 2000 });
    expect(problem.textContent).toBe(t('paypalProblem_declined'));
    expect(problem.getAttribute('role')).toBe('alert');
    expect(fx.notices.map((n) => (n as { topic: string }).topic)).toEqual(['fail']);
    const again = within(dialog).getByTestId('paypal-button') as HTMLButtonElement;
    expect(again.disabled).toBe(false);
    expect(again.getAttribute('aria-busy')).not.toBe('true');
    expect(s.inputsOf('deleteOrder')).toEqual([]);
    // Another way: the order list, where the same order is paid by any method.
    await user.click(within(dialog).getByRole('button', { name: t('paypalOtherMethod') }));
    expect(actor.getSnapshot().output).toEqual({ result: 'toOrders' });
  });

  it('the approval window closed by the buyer: the reason, pay again opens a new window', async () => {
    const user = userEvent.setup();
    const { win, openWindow, actor, dialog } = paypalWith({ createPaypalOrder: PP_ORDER });
    await user.click(within(dialog).getByTestId('paypal-button'));
    await waitFor(() => expect(actor.getSnapshot().matches('awaitingApproval')).toBe(true));
    win.closed = true;
    expect((await within(dialog).findByTestId('paypal-problem', {}, { timeout: 2000 })).textContent).toBe(t('paypalProblem_cancelled'));
    win.closed = false;
    await user.click(within(dialog).getByTestId('paypal-button'));
    expect(openWindow).toHaveBeenCalledTimes(2);
    await waitFor(() => expect(actor.getSnapshot().matches('awaitingApproval')).toBe(true));
    expect(within(dialog).queryByTestId('paypal-problem')).toBeNull();
  });

  it('PayPal unreachable (createOrder refused, network) or the window blocked: the reason and pay again, never a silent jump', async () => {
    const user = userEvent.setup();
    const { s, win, actor, dialog } = paypalWith({ createPaypalOrder: { error: new TypeError('Failed to fetch') } });
    await user.click(within(dialog).getByTestId('paypal-button'));
    expect((await within(dialog).findByTestId('paypal-problem')).textContent).toBe(t('paypalProblem_unreachable'));
    expect(win.close).toHaveBeenCalled();
    expect(actor.getSnapshot().status).toBe('active');
    expect((within(dialog).getByTestId('paypal-button') as HTMLButtonElement).disabled).toBe(false);
    expect(s.inputsOf('createPaypalOrder')).toHaveLength(1);
  });

  it('the browser blocks the approval window: the reason in the modal', async () => {
    const user = userEvent.setup();
    const { dialog } = paypalWith({ createPaypalOrder: PP_ORDER }, 'blocked');
    await user.click(within(dialog).getByTestId('paypal-button'));
    expect((await within(dialog).findByTestId('paypal-problem', {}, { timeout: 2000 })).textContent).toBe(t('paypalProblem_unreachable'));
  });

  it('a capture without an answer (5xx, network): may have paid, so no second payment; the order list', async () => {
    const user = userEvent.setup();
    const { win, actor, dialog } = paypalWith({ createPaypalOrder: PP_ORDER, capturePaypalOrder: { error: apiError(502, 'PAYMENT_FAILED', 'provider down') } });
    await user.click(within(dialog).getByTestId('paypal-button'));
    await waitFor(() => expect(win.location.href).toBe('/sandbox/paypal/checkoutnow?token=PP-1'));
    win.location.href = `${window.location.origin}/paypal/return?token=PP-1&PayerID=PAYER9`;
    expect((await within(dialog).findByTestId('paypal-problem', {}, { timeout: 2000 })).textContent).toBe(t('paypalProblem_unconfirmed'));
    expect(within(dialog).queryByTestId('paypal-button')).toBeNull();
    await user.click(within(dialog).getByTestId('paypal-orders'));
    expect(actor.getSnapshot().output).toEqual({ result: 'toOrders' });
  });

  it('has a close button in every state (before paying, while PayPal answers, while approving); closing keeps the order (toOrders) and the window', async () => {
    const user = userEvent.setup();
    for (const stage of ['onPending', 'creatingPaypalOrder', 'awaitingApproval', 'capturing'] as const) {
      const { win, actor, dialog } = paypalWith({
        createPaypalOrder: stage === 'creatingPaypalOrder' ? never : PP_ORDER,
        capturePaypalOrder: never,
      });
      if (stage !== 'onPending') await user.click(within(dialog).getByTestId('paypal-button'));
      if (stage === 'capturing') {
        await waitFor(() => expect(win.location.href).toBe('/sandbox/paypal/checkoutnow?token=PP-1'));
        win.location.href = `${window.location.origin}/paypal/return?token=PP-1&PayerID=PAYER9`;
      }
      await waitFor(() => expect(actor.getSnapshot().matches(stage)).toBe(true));
      await user.click(within(dialog).getByRole('button', { name: t('close') }));
      expect(actor.getSnapshot().output, stage).toEqual({ result: 'toOrders' });
      if (stage === 'awaitingApproval') expect(win.close).toHaveBeenCalled();
      cleanup();
    }
  });

  it('Escape closes it; a click on the mask does not', async () => {
    const user = userEvent.setup();
    const { actor, dialog } = paypalWith({});
    await user.click(document.querySelector('.ui-modal-mask') as HTMLElement);
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(actor.getSnapshot().status).toBe('active');
    within(dialog).getByTestId('paypal-button').focus();
    await user.keyboard('{Escape}');
    expect(actor.getSnapshot().output).toEqual({ result: 'toOrders' });
  });
});

describe('2C2P card form', () => {
  it('encrypts in the page (fields have no name) and the signed form is posted', async () => {
    const user = userEvent.setup();
    const fx = effectSpies();
    const s = scripted({
      create2c2pCardRequest: { ok: { success: true, data: { success: true, action: 'https://gw.example/pay', method: 'POST', fields: { paymentRequest: 'UGF5bWVudFJlcXVlc3Q=' } } } },
    });
    const actor = createActor(twoC2pCardMachine.provide({ actors: s.actors, actions: fx.actions }), { input: { order: order(3) } }).start();
    const encrypt = vi.fn(async () => ({ encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: nextYear }));
    render(<TwoC2pCardModal actorRef={actor} encrypt={encrypt} />);
    const number = screen.getByLabelText(/หมายเลขบัตร/) as HTMLInputElement;
    expect(number.name).toBe('');
    expect(number.getAttribute('data-encrypt')).toBe('cardnumber');
    await user.type(number, '4111111111111111');
    await user.type(screen.getByLabelText(/เดือนหมดอายุ/), '12');
    await user.type(screen.getByLabelText(/ปีหมดอายุ/), nextYear);
    await user.type(screen.getByLabelText(/CVV/), '123');
    await user.click(screen.getByRole('button', { name: /ชำระเงิน/ }));
    await waitFor(() => expect(fx.forms).toEqual([{ action: 'https://gw.example/pay', fields: { paymentRequest: 'UGF5bWVudFJlcXVlc3Q=' } }]));
    expect(s.inputsOf('create2c2pCardRequest')[0]).toEqual({ orderId: 501, encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: nextYear });
  });
});

describe('every payment modal can be left', () => {
  it('SCB QR: the close button and Escape leave; a click on the mask does not', async () => {
    const user = userEvent.setup();
    const s = scripted({ createScbQrCode: { ok: { status: { code: 1000, description: 'Success' }, data: { qrRawData: 'x', qrImage: 'iVBORw0KGgo=', csExtExpiryTime: 15, expires_at: inMinutes(15) } } } });
    const actor = createActor(scbQrMachine.provide({ actors: s.actors, actions: effectSpies().actions }), { input: { order: order(4) } }).start();
    const onLeave = vi.fn();
    render(<ScbQrModal actorRef={actor} onLeave={onLeave} />);
    await screen.findByTestId('qr-image');
    const dialog = screen.getByRole('dialog');
    await user.keyboard('{Escape}');
    expect(onLeave).toHaveBeenCalledTimes(1);
    await user.click(within(dialog).getByRole('button', { name: 'ปิด' }));
    expect(onLeave).toHaveBeenCalledTimes(2);
    await user.click(dialog.parentElement!);
    expect(onLeave).toHaveBeenCalledTimes(2);
  });
});
