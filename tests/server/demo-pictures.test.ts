// The demo catalogue's pictures draw their titles as outlines (scripts/outline-demo-pictures.mjs):
// an SVG <text> is laid out with the viewer's fonts, so a Thai title showed boxes where no Thai
// font is installed, and each size a picture was drawn at asked the browser for its font again
// while the page laid itself out (bench/why.md, the fourteenth pass).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const dir = new URL('../../server/db/demo-assets/', import.meta.url);
const pictures = readdirSync(dir).filter((f) => f.endsWith('.svg'));

describe('the demo pictures', () => {
  it('are there', () => {
    expect(pictures.length).toBeGreaterThan(10);
  });

  it.each(pictures)('%s: no text to lay out, and still a named picture', (file) => {
    const svg = readFileSync(new URL(file, dir), 'utf8');
    expect(svg).not.toMatch(/<text\b/);
    expect(svg).toMatch(/^<svg [^>]*role="img"[^>]*aria-label="[^"]+"/);
  });
});
