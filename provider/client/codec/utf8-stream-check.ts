/**
 * Checks, chunk by chunk, that a byte stream is UTF-8. A character may straddle two chunks: its
 * first bytes are carried over and checked with the start of the next chunk.
 */

import { isUtf8 } from 'node:buffer';

export class Utf8StreamCheck {
  private carry: Uint8Array = new Uint8Array(0);

  /** False as soon as the bytes so far cannot be UTF-8. */
  push(chunk: Uint8Array): boolean {
    let from = 0;
    if (this.carry.length > 0) {
      const need = sequenceLength(this.carry[0]) - this.carry.length;
      const joined = new Uint8Array(this.carry.length + Math.min(need, chunk.length));
      joined.set(this.carry);
      joined.set(chunk.subarray(0, need), this.carry.length);
      if (chunk.length < need) {
        this.carry = joined;
        return true;
      }
      if (!isUtf8(joined)) return false;
      from = need;
    }
    const cut = completeEnd(chunk, from);
    if (!isUtf8(chunk.subarray(from, cut))) return false;
    this.carry = chunk.slice(cut);
    return true;
  }

  /** False when the stream ended inside a character. */
  end(): boolean {
    return this.carry.length === 0;
  }
}

/** The length of the UTF-8 sequence `lead` starts; 1 for anything that cannot start one. */
function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  return 1;
}

/** Where the last complete character of `chunk` (from `from` on) ends. */
function completeEnd(chunk: Uint8Array, from: number): number {
  let i = chunk.length - 1;
  // Back over at most three continuation bytes to the lead byte of the last character.
  while (i > from && chunk.length - i < 4 && (chunk[i] & 0xc0) === 0x80) i--;
  if (i < from) return chunk.length;
  return sequenceLength(chunk[i]) > chunk.length - i ? i : chunk.length;
}
