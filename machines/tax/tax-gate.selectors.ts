import type { SnapshotFrom } from 'xstate';
import type { FieldError } from '../../domain/forms/common';
import type { taxGateMachine } from './tax-gate.machine';

type S = SnapshotFrom<typeof taxGateMachine>;

export const selectPersonTypeModalOpen = (s: S): boolean => s.matches('confirmingPersonType');
/** The juristic tax-invoice modal is open while editing, uploading the certificate or saving. */
export const selectTaxModalOpen = (s: S): boolean =>
  s.matches('editingTaxInvoice') || s.matches('uploadingCertificate') || s.matches('savingTaxInvoice');
/** Spec 2: the tax-invoice modal is not dismissable by clicking the mask. */
export const TAX_MODAL_MASK_CLOSABLE = false;
export const TAX_MODAL_STYLE = { width: '85%', maxWidth: 750 } as const;
export const selectTaxForm = (s: S) => s.context.form;
export const selectTaxErrors = (s: S): readonly FieldError[] => s.context.errors;
export const selectTaxSaving = (s: S): boolean => s.matches('savingTaxInvoice') || s.matches('uploadingCertificate');
export const selectCheckingTax = (s: S): boolean => s.matches('loadingStudent');
