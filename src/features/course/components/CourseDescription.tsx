import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { t } from '../../../i18n/messages';

/** Sanitises course HTML before it reaches the DOM (the server's HTML is sanitised again here). */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
    FORBID_ATTR: ['style'],
  });
}

export function HtmlBlock({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  return <div className={className} data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />;
}

export function CourseDescription({ html }: { html: string }) {
  return (
    <section id="course-detail" className="course-section" aria-labelledby="course-detail-title" tabIndex={-1}>
      <h2 id="course-detail-title">{t('courseDetail')}</h2>
      <HtmlBlock html={html} className="course-description" testId="course-description" />
    </section>
  );
}
