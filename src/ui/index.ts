export { Button, type ButtonProps, type ButtonVariant } from './Button';
export { Modal, ConfirmModal, focusableIn, type ModalProps, type ConfirmModalProps } from './Modal';
export { Notifications } from './Notifications';
export { notify, toasts, createToastStore, TOAST_DURATION_MS, type Toast, type ToastInput, type ToastKind, type ToastStore } from './notifications';
export { Field, TextField, TextAreaField, SelectField, ChoiceGroup, RequiredMark, FieldHint, FieldError, type FieldControlProps, type FieldProps } from './Field';
export { UploadWidget, UPLOAD_ACCEPT, type UploadEntry, type UploadKind, type UploadWidgetProps } from './UploadWidget';
export { Spinner } from './Spinner';
export { Price, type PriceProps } from './Price';
export { LockIcon, TrashIcon, PlayIcon, BackIcon, CloseIcon } from './icons';
