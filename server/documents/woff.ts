/**
 * A WOFF 1.0 font unpacked into the plain OpenType (sfnt) file it wraps, once per process.
 *
 * Why: @pdf-lib/fontkit reads a WOFF font's tables through `_getTableStream`, which inflates the
 * table's zlib data again on every read, and a TrueType glyph is read from the `glyf` table one
 * glyph at a time: each glyph drawn or measured inflated the whole `glyf` table once more. Over the
 * server tests that made PDFs this was 8.7 s of CPU in fontkit's `tinf_inflate_block_data` alone.
 * The unpacked file holds the same tables byte for byte, so the PDF's embedded subset is the same.
 *
 * The format (W3C, "WOFF File Format 1.0", https://www.w3.org/TR/WOFF/): a 44-byte header
 * (signature `wOFF`, the sfnt flavor, numTables, ...), then one 20-byte directory entry per table
 * (tag, offset, compLength, origLength, origChecksum), sorted by tag; a table is zlib-compressed
 * when compLength < origLength, stored as is otherwise. The sfnt (OpenType spec, "Organization of
 * an OpenType Font"): the offset table (sfntVersion, numTables, searchRange, entrySelector,
 * rangeShift), one 16-byte record per table (tag, checksum, offset, length) in tag order, then the
 * tables, each starting on a 4-byte boundary.
 */
import { inflateSync } from 'node:zlib';

const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'
const WOFF_HEADER = 44;
const WOFF_ENTRY = 20;
const SFNT_HEADER = 12;
const SFNT_RECORD = 16;

const pad4 = (n: number) => (n + 3) & ~3;

/** The sfnt inside a WOFF 1.0 file; any other bytes (a TTF, an OTF) are returned unchanged. */
export function woffToSfnt(bytes: Uint8Array): Uint8Array {
  const src = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (src.length < WOFF_HEADER || src.readUInt32BE(0) !== WOFF_SIGNATURE) return bytes;
  const flavor = src.readUInt32BE(4);
  const numTables = src.readUInt16BE(12);
  if (numTables === 0) throw new Error('WOFF: the font has no tables');
  if (src.length < WOFF_HEADER + numTables * WOFF_ENTRY) throw new Error('WOFF: the table directory runs past the end of the file');
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = WOFF_HEADER + i * WOFF_ENTRY;
    const tag = src.readUInt32BE(at);
    const offset = src.readUInt32BE(at + 4);
    const compLength = src.readUInt32BE(at + 8);
    const origLength = src.readUInt32BE(at + 12);
    const checksum = src.readUInt32BE(at + 16);
    if (offset + compLength > src.length) throw new Error(`WOFF: table ${i} runs past the end of the file`);
    const stored = src.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(stored) : stored;
    if (data.length !== origLength) throw new Error(`WOFF: table ${i} unpacks to ${data.length} bytes, not ${origLength}`);
    return { tag, checksum, data };
  });
  // the sfnt's directory is in ascending tag order (WOFF requires the same order; sorted anyway)
  tables.sort((a, b) => a.tag - b.tag);
  let size = SFNT_HEADER + numTables * SFNT_RECORD;
  for (const t of tables) size += pad4(t.data.length);
  const out = Buffer.alloc(size);
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  out.writeUInt32BE(flavor, 0);
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let offset = SFNT_HEADER + numTables * SFNT_RECORD;
  tables.forEach((t, i) => {
    const at = SFNT_HEADER + i * SFNT_RECORD;
    out.writeUInt32BE(t.tag, at);
    out.writeUInt32BE(t.checksum, at + 4);
    out.writeUInt32BE(offset, at + 8);
    out.writeUInt32BE(t.data.length, at + 12);
    t.data.copy(out, offset);
    offset += pad4(t.data.length);
  });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
