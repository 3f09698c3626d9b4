import type { HTMLAttributes, Ref } from 'react';

export interface AlertProps extends HTMLAttributes<HTMLElement> {
  /**
   * 'error': a failure, in the error colours, announced at once (role alert);
   * 'notice': a state the buyer should know of (role status, read when the reader is idle).
   * `role` may still be given (an error that is only shown, a notice that interrupts).
   */
  kind?: 'notice' | 'error';
  /** A paragraph by default; a div around a block with its own paragraphs and actions. */
  as?: 'p' | 'div';
  ref?: Ref<HTMLDivElement & HTMLParagraphElement>;
}

/** The page's inline message box (`.ui-alert`): one sentence or a block, an error or a notice. */
export function Alert({ kind = 'notice', as: Tag = 'p', className, ...rest }: AlertProps) {
  const classes = ['ui-alert', kind === 'error' ? 'ui-alert--error' : '', className ?? ''].filter(Boolean).join(' ');
  return <Tag className={classes} role={kind === 'error' ? 'alert' : 'status'} {...rest} />;
}
