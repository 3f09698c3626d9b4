import type { SnapshotFrom } from 'xstate';
import type { FieldError } from '../../domain/forms/common';
import type { bankTransferMachine } from './bank-transfer.machine';
import type { Shown } from '../../domain/messages';

type S = SnapshotFrom<typeof bankTransferMachine>;

/** The modal 'แจ้งชำระเงิน' stays open until the notice is filed or left for later. */
export const selectNoticeModalOpen = (s: S): boolean => s.status === 'active';
/** The 'ไว้แจ้งทีหลัง' button (hidden in layout 4 for a buyer without registration). */
export const selectCanNotifyLater = (s: S): boolean => s.can({ type: 'payment.later' });
/** Buttons disabled while uploading or filing. */
export const selectNoticeBusy = (s: S): boolean => !s.matches('notifying') && s.status === 'active';
export const selectNoticeForm = (s: S) => s.context.form;
export const selectNoticeErrors = (s: S): readonly FieldError[] => s.context.errors;
export function selectFieldError(s: S, field: string): Shown | null {
  return s.context.errors.find((e) => e.path === field)?.message ?? null;
}
/** The upload widget hides its button once one slip is there (spec: slip limit 1 file). */
export const selectSlip = (s: S): string | null => s.context.form.slip;
