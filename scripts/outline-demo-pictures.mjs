#!/usr/bin/env node
// The demo catalogue's pictures (server/db/demo-assets/*.svg) write their titles as outlines, not
// as <text>. An SVG picture is a document of its own: its <text> is laid out with whatever
// "sans-serif" the buyer's machine has (a Thai title falls back through the installed fonts, or
// shows boxes where no Thai font is installed), and every size the picture is drawn at asks the
// browser process for the font again — synchronous calls that the page's thread waits for while it
// lays the page out (bench/why.md, the fourteenth pass). As outlines the pictures look the same
// everywhere and lay out no text.
//
// Shaped by HarfBuzz (harfbuzzjs, the library's own WebAssembly build): Thai runs with Loma
// (Debian's fonts-thai-tlwg), the rest with Liberation Sans (fonts-liberation: Arial's metrics, the
// font Chromium drew them with before). The <text>'s x, y, font-size, fill and text-anchor are
// kept; its text stays the picture's name (aria-label). One path per title, to 0.1 px.
// Usage: node scripts/outline-demo-pictures.mjs [files…]   (default: every demo picture with <text>)
// Needs: npm install --no-save harfbuzzjs@1.6.4 (a one-off tool, not a dependency of the shop).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const hb = await import('harfbuzzjs').catch(() => {
  console.error('harfbuzzjs is missing: npm install --no-save harfbuzzjs@1.6.4');
  process.exit(2);
});
const FONTS = { thai: '/usr/share/fonts/truetype/tlwg/Loma.ttf', latin: '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf' };
const fonts = Object.fromEntries(
  Object.entries(FONTS).map(([k, path]) => {
    const face = new hb.Face(new hb.Blob(readFileSync(path)));
    return [k, { face, font: new hb.Font(face) }];
  }),
);
const isThai = (ch) => /[\u0E00-\u0E7F]/.test(ch);

/** The text's runs: Thai and the rest, each with its font. */
function runsOf(text) {
  const runs = [];
  for (const ch of text) {
    const kind = isThai(ch) ? 'thai' : /\s/.test(ch) && runs.length ? runs.at(-1).kind : 'latin';
    if (runs.length && runs.at(-1).kind === kind) runs.at(-1).text += ch;
    else runs.push({ kind, text: ch });
  }
  return runs;
}

/** The text's glyphs as one path each, at `size`, starting at x = 0 on the baseline; and the width. */
function shape(text, size) {
  const glyphs = [];
  let x = 0;
  for (const run of runsOf(text)) {
    const { face, font } = fonts[run.kind];
    const scale = size / face.upem;
    const buffer = new hb.Buffer();
    buffer.addText(run.text);
    buffer.guessSegmentProperties();
    hb.shape(font, buffer);
    const positions = buffer.getGlyphPositions();
    buffer.getGlyphInfos().forEach((info, i) => {
      const p = positions[i];
      const d = font.glyphToPath(info.codepoint);
      if (d) glyphs.push({ d, x: x + p.xOffset * scale, y: -p.yOffset * scale, scale });
      x += p.xAdvance * scale;
    });
  }
  return { glyphs, width: x };
}

const num1 = (n) => String(Math.round(n * 10) / 10);

/** A glyph's path commands (HarfBuzz writes M, L, Q, C with absolute pairs, and Z), each pair moved by `at`. */
function toPlace(d, at) {
  return [...d.matchAll(/([MLQCZ])([^MLQCZ]*)/g)].map(([, op, args]) => {
    const n = args.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)?.map(Number) ?? [];
    const points = [];
    for (let i = 0; i + 1 < n.length; i += 2) points.push(at(n[i], n[i + 1]).map((v) => Math.round(v * 10) / 10));
    return { op, points };
  });
}

/** The commands as one path, in relative coordinates (shorter numbers), to a tenth of a pixel. */
function pathOf(glyphs) {
  let [cx, cy] = [0, 0];
  let [sx, sy] = [0, 0];
  let out = '';
  for (const commands of glyphs)
    for (const { op, points } of commands) {
      if (op === 'Z') {
        out += 'z';
        [cx, cy] = [sx, sy];
        continue;
      }
      const rel = points.map(([x, y]) => `${num1(x - cx)} ${num1(y - cy)}`.replace(/ -/g, '-'));
      out += op.toLowerCase() + rel.join(' ').replace(/ -/g, '-');
      [cx, cy] = points.at(-1);
      if (op === 'M') [sx, sy] = [cx, cy];
    }
  return out;
}

export function outline(svg) {
  return svg.replace(/<text\b([^>]*)>([^<]*)<\/text>/g, (_, attrs, raw) => {
    const attr = (name, fallback) => new RegExp(`\\b${name}="([^"]*)"`).exec(attrs)?.[1] ?? fallback;
    const text = raw.replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
    const size = Number(attr('font-size', '16'));
    const { glyphs, width } = shape(text, size);
    const anchor = attr('text-anchor', 'start');
    const x0 = Number(attr('x', '0')) - (anchor === 'middle' ? width / 2 : anchor === 'end' ? width : 0);
    const y0 = Number(attr('y', '0'));
    // one path: each glyph's outline (font units, y up) moved to its place, to a tenth of a pixel
    const d = pathOf(glyphs.map((g) => toPlace(g.d, (x, y) => [x0 + g.x + x * g.scale, y0 + g.y - y * g.scale])));
    return `<path fill="${attr('fill', '#000')}" d="${d}"/>`;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = fileURLToPath(new URL('../server/db/demo-assets/', import.meta.url));
  const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(dir).filter((f) => f.endsWith('.svg')).map((f) => join(dir, f));
  for (const file of files) {
    const svg = readFileSync(file, 'utf8');
    if (!svg.includes('<text')) continue;
    writeFileSync(file, outline(svg));
    console.log(`outlined ${file}`);
  }
}
