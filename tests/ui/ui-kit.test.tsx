import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Alert, Button, ConfirmModal, createToastStore, Field, Modal, Notifications, Price, SelectField, Skeleton, Spinner, UploadWidget, type UploadEntry } from '../../src/ui';
import { readFileSync } from 'node:fs';
import { t } from '../../src/i18n/messages';

function ModalHarness({ dismissable = true, maskClosable = true }: { dismissable?: boolean; maskClosable?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <div>
      <button type="button" onClick={() => setOpen(true)}>
        open
      </button>
      <button type="button">outside</button>
      <Modal open={open} title="ข้อมูลใบกำกับภาษี" onClose={() => setOpen(false)} dismissable={dismissable} maskClosable={maskClosable} testId="m">
        <label>
          name <input />
        </label>
        <button type="button">inner</button>
      </Modal>
    </div>
  );
}

describe('Modal', () => {
  it('is a labelled modal dialog, moves focus in and traps Tab in both directions', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    const dialog = screen.getByRole('dialog', { name: 'ข้อมูลใบกำกับภาษี' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const input = within(dialog).getByRole('textbox', { name: 'name' });
    expect(document.activeElement).toBe(input);
    await user.tab();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'inner' }));
    await user.tab();
    // wraps to the first focusable of the dialog (the close button in the header)
    expect(dialog.contains(document.activeElement)).toBe(true);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'ปิด' }));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'inner' }));
    for (let i = 0; i < 7; i += 1) await user.tab();
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('traps Tab when its last control is a closed <details> summary (the fields inside it cannot take focus)', async () => {
    const user = userEvent.setup();
    render(
      <Modal open title="login" onClose={() => undefined}>
        <input aria-label="username" />
        <details>
          <summary>register</summary>
          <input aria-label="hidden field" />
        </details>
      </Modal>,
    );
    const dialog = screen.getByRole('dialog', { name: 'login' });
    const close = within(dialog).getByRole('button', { name: 'ปิด' });
    const summary = dialog.querySelector('summary')!;
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(close);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(summary);
    await user.tab();
    expect(document.activeElement).toBe(close);
    summary.click();
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(dialog).getByRole('textbox', { name: 'hidden field' }));
  });

  it('closes on Escape and returns focus to the opener', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    const opener = screen.getByRole('button', { name: 'open' });
    await user.click(opener);
    expect(screen.queryByRole('dialog')).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('is not closed by Escape or a close button when not dismissable', async () => {
    const user = userEvent.setup();
    render(<ModalHarness dismissable={false} />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'ปิด' })).toBeNull();
  });

  it('closes by a mask click only when mask closing is allowed', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<ModalHarness maskClosable={false} />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    await user.click(screen.getByTestId('m-mask'));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    // a click inside the dialog never closes it
    await user.click(screen.getByRole('button', { name: 'inner' }));
    expect(screen.queryByRole('dialog')).not.toBeNull();
    unmount();
    render(<ModalHarness />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    await user.click(screen.getByTestId('m-mask'));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('brings focus back inside when something behind it gets focus', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    act(() => screen.getByRole('button', { name: 'outside' }).focus());
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
  });

  it('a focused control the dialog removes leaves the focus on the body: Escape still closes it, Tab brings the focus back in', async () => {
    function Steps({ onClose }: { onClose: () => void }) {
      const [step, setStep] = useState(1);
      return (
        <Modal open title="ชำระเงินอีกครั้ง" onClose={onClose} testId="steps">
          {step === 1 ? (
            <button type="button" onClick={() => setStep(2)}>
              change
            </button>
          ) : (
            <button type="button">pay</button>
          )}
        </Modal>
      );
    }
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<Steps onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'change' }));
    // Chromium leaves the focus on the body when the focused element is removed (jsdom may not)
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    await user.tab();
    expect(screen.getByTestId('steps').contains(document.activeElement)).toBe(true);
    (document.activeElement as HTMLElement).blur();
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('is 85% wide up to 750 px by default', async () => {
    const user = userEvent.setup();
    render(<ModalHarness />);
    await user.click(screen.getByRole('button', { name: 'open' }));
    expect(screen.getByRole('dialog').style.maxWidth).toBe('750px');
  });

  it('confirm modal answers yes and no by keyboard', async () => {
    const user = userEvent.setup();
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(<ConfirmModal open title="เปลี่ยนไปใช้โปรโมชั่น?" body="คูปองจะถูกยกเลิก" onConfirm={onConfirm} onCancel={onCancel} />);
    const dialog = screen.getByRole('dialog', { name: 'เปลี่ยนไปใช้โปรโมชั่น?' });
    expect(dialog.getAttribute('aria-describedby')).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
    within(dialog).getByRole('button', { name: 'ยืนยัน' }).focus();
    await user.keyboard('{Enter}');
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});

describe('Notifications', () => {
  it('shows toasts in a live region and removes them after 4.5 s', () => {
    const timers: { fn: () => void; ms: number }[] = [];
    const store = createToastStore((fn, ms) => timers.push({ fn, ms }));
    render(<Notifications store={store} />);
    const region = screen.getByRole('region', { name: 'การแจ้งเตือน' });
    expect(region.getAttribute('aria-live')).toBe('polite');
    act(() => {
      store.push({ kind: 'error', title: 'ผิดพลาด', message: 'ชำระเงินไม่สำเร็จ กรุณาลองอีกครั้ง' });
      store.push({ kind: 'success', message: 'จองคอร์สเรียบร้อยแล้ว' });
    });
    expect(within(region).getByRole('alert').textContent).toContain('ชำระเงินไม่สำเร็จ');
    expect(within(region).getByRole('status').textContent).toContain('จองคอร์สเรียบร้อยแล้ว');
    expect(timers.map((x) => x.ms)).toEqual([4500, 4500]);
    act(() => timers[0]!.fn());
    expect(within(region).queryByRole('alert')).toBeNull();
  });

  it('a toast can be closed by its button', async () => {
    const user = userEvent.setup();
    const store = createToastStore(() => undefined);
    render(<Notifications store={store} />);
    act(() => {
      store.push({ kind: 'info', message: 'hello' });
    });
    await user.click(screen.getByRole('button', { name: 'ปิด' }));
    expect(screen.queryByText('hello')).toBeNull();
  });
});

describe('Field', () => {
  it('links the label and the error text to the control', () => {
    render(<Field label="อีเมล" error="กรุณากรอกอีเมล" hint="ใช้สำหรับรับใบเสร็จ" required>{(c) => <input {...c} />}</Field>);
    const input = screen.getByRole('textbox', { name: /อีเมล/ });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const ids = (input.getAttribute('aria-describedby') ?? '').split(' ');
    expect(ids.map((id) => document.getElementById(id)?.textContent)).toEqual(['ใช้สำหรับรับใบเสร็จ', 'กรุณากรอกอีเมล']);
  });

  it('has no error link when valid', () => {
    render(<Field label="ชื่อ">{(c) => <input {...c} />}</Field>);
    const input = screen.getByRole('textbox', { name: 'ชื่อ' });
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });
});

describe('UploadWidget', () => {
  function Harness({ onAdd }: { onAdd?: (f: File) => void }) {
    const [files, setFiles] = useState<UploadEntry[]>([]);
    return (
      <UploadWidget
        kind="image"
        label="หลักฐานการโอนเงิน"
        files={files}
        onAdd={(file) => {
          onAdd?.(file);
          setFiles([{ name: file.name, size: file.size, type: file.type, file }]);
        }}
        onRemove={(name) => setFiles((list) => list.filter((f) => f.name !== name))}
        testId="slip"
      />
    );
  }

  it('one upload button, hidden once a file is chosen; preview and delete', async () => {
    const user = userEvent.setup();
    const onAdd = vi.fn();
    render(<Harness onAdd={onAdd} />);
    const button = screen.getByRole('button', { name: /หลักฐานการโอนเงิน/ });
    expect(button.textContent).toBe('อัพโหลดรูปภาพ');
    const file = new File(['png'], 'slip.png', { type: 'image/png' });
    await user.upload(screen.getByTestId('slip-input'), file);
    expect(onAdd).toHaveBeenCalledWith(file);
    expect(screen.queryByRole('button', { name: /อัพโหลดรูปภาพ/ })).toBeNull();
    screen.getByRole('img', { name: 'ตัวอย่าง slip.png' });
    expect(screen.getByRole('list', { name: 'ไฟล์ที่เลือก' }).textContent).toContain('slip.png');
    await user.click(screen.getByRole('button', { name: 'ลบไฟล์ slip.png' }));
    expect(screen.queryByText('slip.png')).toBeNull();
    screen.getByRole('button', { name: /หลักฐานการโอนเงิน/ });
  });

  it('video kind previews with a video element', () => {
    render(<UploadWidget kind="video" label="วิดีโอ" files={[{ name: 'a.mp4', url: '/uploads/a.mp4' }]} onAdd={() => {}} onRemove={() => {}} />);
    const video = document.querySelector('video');
    expect(video?.getAttribute('src')).toBe('/uploads/a.mp4');
    expect(video?.getAttribute('aria-label')).toBe('ตัวอย่าง a.mp4');
  });
});

describe('Button, Spinner, Price', () => {
  it('a busy button is marked aria-busy and activates with the keyboard', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(
      <Button loading onClick={onClick}>
        ชำระเงิน
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'ชำระเงิน' });
    expect(button.getAttribute('aria-busy')).toBe('true');
    expect(button.getAttribute('type')).toBe('button');
    button.focus();
    await user.keyboard('{Enter}');
    await user.keyboard(' ');
    expect(onClick).toHaveBeenCalledTimes(2);
  });

  it('spinner announces loading', () => {
    render(<Spinner />);
    expect(screen.getByRole('status').textContent).toBe('กำลังโหลด…');
  });

  it('a skeleton announces loading with still bars: no animation keeps the compositor drawing while a page starts', () => {
    const { container } = render(<Skeleton lines={4} />);
    expect(screen.getByRole('status').textContent).toBe('กำลังโหลด…');
    expect(container.querySelectorAll('.ui-skeleton__bar[aria-hidden="true"]').length).toBe(4);
    const css = readFileSync('src/ui/ui.css', 'utf8');
    const rules = [...css.matchAll(/([^{}]*\.ui-skeleton[^{}]*)\{([^}]*)\}/g)];
    expect(rules.length).toBeGreaterThan(0);
    for (const [, selector, body] of rules) expect(body, selector).not.toMatch(/animation|transition/);
  });

  it('price: THB with 2 decimals, Free at 0 when asked, nothing for null', () => {
    const { container } = render(
      <p>
        <Price amount={150000} currency="THB" testId="a" />
        <Price amount={0} currency="THB" freeWhenZero testId="b" />
        <Price amount={null} currency="THB" testId="c" />
        <Price amount={1999} currency="USD" testId="d" />
      </p>,
    );
    expect(screen.getByTestId('a').textContent).toMatch(/1,500\.00/);
    expect(screen.getByTestId('b').textContent).toBe(t('free'));
    expect(screen.queryByTestId('c')).toBeNull();
    expect(screen.getByTestId('d').textContent).toMatch(/19\.99/);
    expect(container.querySelectorAll('.ui-price').length).toBe(3);
  });
});

describe('Alert', () => {
  it('an error is a paragraph in the error colours announced at once; a notice is a status', () => {
    render(
      <>
        <Alert kind="error" data-testid="e">
          failed
        </Alert>
        <Alert data-testid="n">notice</Alert>
      </>,
    );
    const error = screen.getByTestId('e');
    expect(error.tagName).toBe('P');
    expect(error.className).toBe('ui-alert ui-alert--error');
    expect(error.getAttribute('role')).toBe('alert');
    const notice = screen.getByTestId('n');
    expect(notice.className).toBe('ui-alert');
    expect(notice.getAttribute('role')).toBe('status');
  });

  it('a block keeps its own class after the alert classes; a given role wins over the default', () => {
    render(
      <Alert as="div" className="email-taken" role="alert" data-testid="b">
        <p>inside</p>
      </Alert>,
    );
    const block = screen.getByTestId('b');
    expect(block.tagName).toBe('DIV');
    expect(block.className).toBe('ui-alert email-taken');
    expect(block.getAttribute('role')).toBe('alert');
  });
});

describe('SelectField', () => {
  it('options come after an empty "Choose" option, each with its value and text', () => {
    render(<SelectField label="ธนาคาร" defaultValue="" options={[{ value: 'KBANK', label: 'ธนาคารกสิกรไทย' }, { value: 7, label: 'seven' }]} />);
    const select = screen.getByRole('combobox', { name: 'ธนาคาร' });
    const options = within(select).getAllByRole('option');
    expect(options.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['', t('choose')],
      ['KBANK', 'ธนาคารกสิกรไทย'],
      ['7', 'seven'],
    ]);
  });

  it('without options, renders its option children as given', () => {
    render(
      <SelectField label="x" defaultValue="a">
        <option value="a">A</option>
      </SelectField>,
    );
    expect(within(screen.getByRole('combobox', { name: 'x' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['A']);
  });
});
