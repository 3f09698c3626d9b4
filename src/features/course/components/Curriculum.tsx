import type { Course } from '../loader';
import { t } from '../../../i18n/messages';

function duration(seconds: number | null | undefined): string {
  if (!seconds) return '';
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** Course content: sections with their lectures; free previews link to the playlist. */
export function Curriculum({ sections, playlistHref }: { sections: Course['sections']; playlistHref: string }) {
  const lectures = sections.reduce((n, s) => n + s.lectures.length, 0);
  return (
    <section id="course-content" className="course-section" aria-labelledby="course-content-title" tabIndex={-1}>
      <h2 id="course-content-title">{t('courseContent')}</h2>
      <p className="ui-muted">
        {t('sections', { count: sections.length })} · {t('lectures', { count: lectures })}
      </p>
      <ol className="curriculum" data-testid="curriculum">
        {[...sections]
          .sort((a, b) => a.location - b.location)
          .map((section) => (
            <li key={section.id} className="curriculum__section">
              <details open={sections.length <= 3}>
                <summary>
                  <span className="curriculum__name">{section.name}</span>
                  <span className="ui-muted"> ({t('lectures', { count: section.lectures.length })})</span>
                </summary>
                <ul className="curriculum__lectures">
                  {section.lectures.map((lecture) => (
                    <li key={lecture.id} className="curriculum__lecture">
                      <span>{lecture.name}</span>
                      <span className="curriculum__meta">
                        {lecture.preview ? (
                          <a href={playlistHref} className="curriculum__preview">
                            {t('previewLecture')}
                            <span className="ui-visually-hidden"> {lecture.name}</span>
                          </a>
                        ) : null}
                        <span className="ui-muted">{duration(lecture.video_length)}</span>
                      </span>
                    </li>
                  ))}
                </ul>
              </details>
            </li>
          ))}
      </ol>
    </section>
  );
}
