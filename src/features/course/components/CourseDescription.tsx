import type { Config, DOMPurify } from 'dompurify';
import { Suspense, use, useMemo } from 'react';
import { t } from '../../../i18n/messages';

/**
 * DOMPurify (≈ 9 kB gzip) is not in the course route's first load: the course and product routes
 * fetch it beside their page's chunk and wait for both (src/app/routes.tsx), so the HTML blocks
 * are in the page's first render and move nothing when they come. A block rendered before it has
 * arrived (another route, a failed load) waits for it alone; a failed load is tried again, so the
 * block never ends in an error.
 */
const SANITIZER_RETRY_MS = 2000;
let purify: DOMPurify | null = null;
let loading: Promise<DOMPurify> | null = null;

/** Loads DOMPurify once (trying again after a failed load); resolves with it. */
export function loadSanitizer(): Promise<DOMPurify> {
  loading ??= new Promise<DOMPurify>((resolve) => {
    const load = () =>
      import('dompurify').then(
        (m) => resolve((purify = m.default)),
        () => setTimeout(load, SANITIZER_RETRY_MS),
      );
    void load();
  });
  return loading;
}

// Started when the page's chunk is evaluated (the route has fetched the module beside it and waits
// for it), so the first render finds it ready and does not suspend.
if (typeof window !== 'undefined') void loadSanitizer();

const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  FORBID_ATTR: ['style'],
};

/** Sanitises course HTML before it reaches the DOM (the server's HTML is sanitised again here). */
export async function sanitizeHtml(html: string): Promise<string> {
  return (await loadSanitizer()).sanitize(html, CONFIG);
}

function SanitizedHtml({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  const sanitizer = purify ?? use(loadSanitizer());
  const clean = useMemo(() => sanitizer.sanitize(html, CONFIG), [sanitizer, html]);
  return <div className={className} data-testid={testId} dangerouslySetInnerHTML={{ __html: clean }} />;
}

export function HtmlBlock({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  return (
    <Suspense fallback={<div className={className} aria-busy="true" />}>
      <SanitizedHtml html={html} className={className} testId={testId} />
    </Suspense>
  );
}

export function CourseDescription({ html }: { html: string }) {
  return (
    <section id="course-detail" className="course-section" aria-labelledby="course-detail-title" tabIndex={-1}>
      <h2 id="course-detail-title">{t('courseDetail')}</h2>
      <HtmlBlock html={html} className="course-description" testId="course-description" />
    </section>
  );
}
