/**
 * server/documents/woff.ts: the Sarabun WOFF files the PDFs use, unpacked to plain OpenType, are
 * the same font to fontkit (glyphs, metrics, the Thai shaping the documents rely on), and a valid
 * sfnt (directory in tag order, tables 4-byte aligned, each table's checksum right).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import fontkit from '@pdf-lib/fontkit';
import { woffToSfnt } from '../../server/documents/woff';

const require = createRequire(import.meta.url);
const dir = join(dirname(require.resolve('@fontsource/sarabun/package.json')), 'files');
const FILES = ['thai-400', 'latin-400', 'thai-700', 'latin-700'].map((n) => `sarabun-${n}-normal.woff`);

interface Glyphish {
  id: number;
  advanceWidth: number;
  path: { toSVG(): string };
}
interface Fontish {
  numGlyphs: number;
  unitsPerEm: number;
  ascent: number;
  descent: number;
  characterSet: number[];
  layout(text: string, features?: Record<string, boolean>): { glyphs: Glyphish[]; positions: { xAdvance: number; xOffset: number; yOffset: number }[] };
}
const open = (bytes: Uint8Array) => fontkit.create(Buffer.from(bytes)) as unknown as Fontish;

/** The OpenType table checksum: the sum of the table's big-endian uint32s, zero-padded. */
function checksum(data: Buffer): number {
  const padded = Buffer.alloc((data.length + 3) & ~3);
  data.copy(padded);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + padded.readUInt32BE(i)) >>> 0;
  return sum;
}

describe('woffToSfnt', () => {
  for (const file of FILES) {
    it(`${file}: the same font to fontkit, as a valid sfnt`, () => {
      const woff = new Uint8Array(readFileSync(join(dir, file)));
      const sfnt = woffToSfnt(woff);
      const b = Buffer.from(sfnt);
      expect(b.readUInt32BE(0)).toBe(Buffer.from(woff).readUInt32BE(4)); // the WOFF's flavor
      const numTables = b.readUInt16BE(4);
      expect(numTables).toBe(Buffer.from(woff).readUInt16BE(12));
      let previous = -1;
      for (let i = 0; i < numTables; i++) {
        const at = 12 + i * 16;
        const tag = b.readUInt32BE(at);
        const offset = b.readUInt32BE(at + 8);
        const length = b.readUInt32BE(at + 12);
        expect(tag).toBeGreaterThan(previous);
        previous = tag;
        expect(offset % 4).toBe(0);
        // head's checkSumAdjustment (bytes 8-11) is left out of its own checksum
        const data = Buffer.from(b.subarray(offset, offset + length));
        if (b.toString('latin1', at, at + 4) === 'head') data.writeUInt32BE(0, 8);
        expect(checksum(data)).toBe(b.readUInt32BE(at + 4));
      }
      const a = open(woff);
      const c = open(sfnt);
      expect([c.numGlyphs, c.unitsPerEm, c.ascent, c.descent]).toEqual([a.numGlyphs, a.unitsPerEm, a.ascent, a.descent]);
      expect(c.characterSet).toEqual(a.characterSet);
      const text = file.includes('thai') ? 'ใบกำกับภาษี เลขที่ ผู้ซื้อ น้ำ ปี่' : 'Tax invoice No. 1,990.00 THB';
      const la = a.layout(text, { ccmp: false });
      const lc = c.layout(text, { ccmp: false });
      expect(lc.glyphs.map((g) => g.id)).toEqual(la.glyphs.map((g) => g.id));
      expect(lc.positions).toEqual(la.positions);
      expect(lc.glyphs.map((g) => g.path.toSVG())).toEqual(la.glyphs.map((g) => g.path.toSVG()));
    });
  }

  it('gives back bytes that are not WOFF unchanged', () => {
    const sfnt = woffToSfnt(new Uint8Array(readFileSync(join(dir, FILES[0]!))));
    expect(woffToSfnt(sfnt)).toBe(sfnt);
  });

  it('reads a stored (uncompressed) table as it is and refuses a broken file', () => {
    // a one-table WOFF: 'test' stored uncompressed, then the same table deflated
    const table = Buffer.from('abcdefgh'.repeat(50));
    const woff = (stored: Buffer, origLength: number) => {
      const out = Buffer.alloc(44 + 20 + ((stored.length + 3) & ~3));
      out.writeUInt32BE(0x774f4646, 0);
      out.writeUInt32BE(0x00010000, 4);
      out.writeUInt32BE(out.length, 8);
      out.writeUInt16BE(1, 12);
      out.write('test', 44, 'latin1');
      out.writeUInt32BE(64, 48);
      out.writeUInt32BE(stored.length, 52);
      out.writeUInt32BE(origLength, 56);
      out.writeUInt32BE(checksum(table), 60);
      stored.copy(out, 64);
      return new Uint8Array(out);
    };
    for (const stored of [table, deflateSync(table)]) {
      const b = Buffer.from(woffToSfnt(woff(stored, table.length)));
      expect(b.readUInt16BE(4)).toBe(1);
      expect(b.toString('latin1', 12, 16)).toBe('test');
      expect(b.subarray(b.readUInt32BE(20), b.readUInt32BE(20) + b.readUInt32BE(24)).toString()).toBe(table.toString());
    }
    expect(() => woffToSfnt(woff(deflateSync(table), table.length + 1))).toThrow(/unpacks to 400 bytes, not 401/);
    expect(() => woffToSfnt(woff(table, table.length).subarray(0, 70))).toThrow(/past the end/);
    const empty = woff(table, table.length);
    new DataView(empty.buffer).setUint16(12, 0);
    expect(() => woffToSfnt(empty)).toThrow(/no tables/);
  });
});
