/**
 * A fixed byte sequence (a run of tags), compared with the document eight or four bytes at a
 * time through a DataView (an unaligned load is one instruction, where a byte loop costs a
 * compare and a bounds check per byte), and written to the output in one copy. The fast path of
 * the scanner and the encoder's tags are made of these.
 *
 * Eight bytes are compared as a float64. Float equality is bit equality except for NaN (never
 * equal) and zero (+0 equals -0); a template word that is neither compares exactly, so such
 * templates use float64 words and the others 32-bit integer words.
 */

export class ByteTemplate {
  readonly length: number;
  /** A copy of the bytes, for writing. */
  readonly bytes: Buffer;
  /** Whether the words are float64 (8 bytes) rather than int32 (4 bytes). */
  private readonly wide: boolean;
  /** Where each word starts (the last one may overlap the one before). */
  private readonly offsets: Int32Array;
  private readonly wideWords: Float64Array;
  private readonly words: Int32Array;

  constructor(bytes: Uint8Array) {
    if (bytes.length < 4) throw new RangeError('a template has at least four bytes');
    this.length = bytes.length;
    this.bytes = Buffer.from(bytes);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const wideOffsets = bytes.length >= 8 ? wordOffsets(bytes.length, 8) : [];
    const wideWords = wideOffsets.map((offset) => view.getFloat64(offset, true));
    this.wide = wideWords.length > 0 && wideWords.every((word) => word === word && word !== 0);
    this.offsets = Int32Array.from(this.wide ? wideOffsets : wordOffsets(bytes.length, 4));
    this.wideWords = Float64Array.from(this.wide ? wideWords : []);
    this.words = Int32Array.from(this.wide ? [] : this.offsets, (offset) =>
      view.getInt32(offset, true),
    );
  }

  static of(text: string): ByteTemplate {
    return new ByteTemplate(Buffer.from(text, 'latin1'));
  }

  /** Whether the bytes of `view` at `at` are this template, all of them before `end`. */
  matches(view: DataView, at: number, end: number): boolean {
    if (at + this.length > end) return false;
    const offsets = this.offsets;
    if (this.wide) {
      const words = this.wideWords;
      for (let k = 0; k < words.length; k++) {
        if (view.getFloat64(at + offsets[k], true) !== words[k]) return false;
      }
    } else {
      const words = this.words;
      for (let k = 0; k < words.length; k++) {
        if (view.getInt32(at + offsets[k], true) !== words[k]) return false;
      }
    }
    return true;
  }
}

/** Offsets of `size`-byte words covering `length` bytes, the last one flush with the end. */
function wordOffsets(length: number, size: number): number[] {
  const offsets: number[] = [];
  for (let offset = 0; offset < length; offset += size) {
    offsets.push(Math.max(0, Math.min(offset, length - size)));
  }
  return offsets;
}
