/** The drawings of docs/machines (npm run machines:draw), by machine id, as SVG text. */
const files = import.meta.glob('../../docs/machines/*.svg', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;

export const CHARTS: Record<string, string> = Object.fromEntries(
  Object.entries(files).map(([path, svg]) => [path.replace(/^.*\//, '').replace(/\.svg$/, ''), svg]),
);

/** What a drawing's <metadata> says: the machine's file and the hash it was drawn from. */
export function chartMeta(svg: string): { machine: string; file: string; hash: string } | null {
  const m = /<metadata[^>]*>([^<]*)<\/metadata>/.exec(svg);
  if (!m) return null;
  try {
    return JSON.parse(m[1]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')) as { machine: string; file: string; hash: string };
  } catch {
    return null;
  }
}
