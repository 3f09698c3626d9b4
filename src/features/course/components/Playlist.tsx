import { Link } from 'react-router';
import type { PlaylistItem } from '../loader';
import { t } from '../../../i18n/messages';
import { BackIcon, LockIcon } from '../../../ui';

function embedUrl(url: string): string | null {
  const yt = /(?:youtube\.com\/watch\?v=|youtu\.be\/)([\w-]{6,})/.exec(url);
  if (yt) return `https://www.youtube-nocookie.com/embed/${yt[1]}`;
  const vimeo = /vimeo\.com\/(\d+)/.exec(url);
  if (vimeo) return `https://player.vimeo.com/video/${vimeo[1]}`;
  return null;
}

/**
 * The video playlist view (?learn=true opens it; starting playback replaces the page with it):
 * the lectures by section; the chosen one (?lecture=) plays when the viewer may see it.
 */
export function PlaylistView({ items, courseName, backHref, current }: { items: PlaylistItem[]; courseName: string; backHref: string; current: number | null }) {
  const playable = items.filter((i) => i.url);
  const active = playable.find((i) => i.lectures_id === current) ?? playable[0] ?? null;
  const sections = new Map<number, { name: string; location: number; items: PlaylistItem[] }>();
  for (const item of items) {
    const s = sections.get(item.sections_id) ?? { name: item.sections_name, location: item.sections_location, items: [] };
    s.items.push(item);
    sections.set(item.sections_id, s);
  }
  const embed = active?.url ? embedUrl(active.url) : null;
  return (
    <main className="playlist" data-testid="playlist">
      <p>
        <Link to={backHref}>
          <BackIcon /> {courseName}
        </Link>
      </p>
      <h1>{t('playlist')}</h1>
      <div className="playlist__grid">
        <div className="playlist__player">
          {active?.url ? (
            embed ? (
              <iframe src={embed} title={active.lectures_name} allow="encrypted-media; picture-in-picture" allowFullScreen />
            ) : (
              <video src={active.url} controls aria-label={active.lectures_name} />
            )
          ) : (
            <p className="ui-muted">{t('noCourses')}</p>
          )}
          {active ? <h2>{active.lectures_name}</h2> : null}
        </div>
        <nav aria-label={t('playlist')} className="playlist__list">
          {[...sections.entries()]
            .sort((a, b) => a[1].location - b[1].location)
            .map(([id, s]) => (
              <section key={id}>
                <h3>{s.name}</h3>
                <ol>
                  {s.items.map((i) => (
                    <li key={i.lectures_id}>
                      {i.url ? (
                        <Link to={`?learn=true&lecture=${i.lectures_id}`} aria-current={i.lectures_id === active?.lectures_id ? 'true' : undefined}>
                          {i.lectures_name}
                        </Link>
                      ) : (
                        <span className="ui-muted">
                          {i.lectures_name} <LockIcon label={t('lockedLecture')} />
                        </span>
                      )}
                    </li>
                  ))}
                </ol>
              </section>
            ))}
        </nav>
      </div>
    </main>
  );
}
