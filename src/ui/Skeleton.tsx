import { t } from '../i18n/messages';

export interface SkeletonProps {
  /** How many grey bars stand for the content to come. */
  lines?: number;
  /** Text read by screen readers while the content loads. */
  label?: string;
}

/**
 * A still placeholder for content on its way: grey bars, announced as loading. It does not move:
 * an animation (a spinner) keeps the compositor drawing a frame every 16 ms while a phone's page
 * is still starting, on the same cores as its main thread.
 */
export function Skeleton({ lines = 3, label }: SkeletonProps) {
  return (
    <span role="status" className="ui-skeleton">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="ui-skeleton__bar" aria-hidden="true" />
      ))}
      <span className="ui-visually-hidden">{label ?? t('loading')}</span>
    </span>
  );
}
