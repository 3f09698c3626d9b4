import { t } from '../i18n/messages';

export interface SpinnerProps {
  /** Text read by screen readers; '' renders a decorative spinner (inside a busy button). */
  label?: string;
  size?: 'small' | 'medium';
}

export function Spinner({ label, size = 'medium' }: SpinnerProps) {
  const text = label ?? t('loading');
  if (text === '') return <span className={`ui-spinner ui-spinner--${size}`} aria-hidden="true" />;
  return (
    <span role="status" className="ui-spinner-wrap">
      <span className={`ui-spinner ui-spinner--${size}`} aria-hidden="true" />
      <span className="ui-visually-hidden">{text}</span>
    </span>
  );
}
