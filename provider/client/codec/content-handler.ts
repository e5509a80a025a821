/**
 * What the XML scanner reports to the reader (XmlRpcReader), in document order: elements, text,
 * and, from its fast path, whole struct members and array items with a scalar value.
 */

import type { MemberShape } from './member-shape';

export interface ContentHandler {
  /** `name` is given only for codes that do not say it: NONE and PREFIXED_NIL. */
  openElement(code: number, name: string): void;
  closeElement(): void;
  /** Text in `window.bytes[start, end)`, valid until the next open or close. */
  text(start: number, end: number, flags: number): void;
  /** Text as a string (CDATA, and text next to comments or across chunks). */
  appendText(text: string): void;
  /** Whether a `<member>` (resp. an array item) may come now, for the fast path. */
  expectsMember(): boolean;
  expectsItem(): boolean;
  /**
   * A whole member with a scalar value, from `<member>` at `prefixStart`: its name's text and its
   * value's. Valid during the call only.
   */
  scalarMember(prefixStart: number, name: ScalarText, value: ScalarText): void;
  /** A whole array item with a scalar value. */
  scalarItem(value: ScalarText): void;
  /** The member the struct had at this place last time (structs in a listing repeat). */
  memberShape(): MemberShape | undefined;
  /** A member that matched `shape`, with its value's text. */
  shapedMember(shape: MemberShape, value: ScalarText): void;
}

/** Text found by the fast path: `window.bytes[start, end)` with its flags, in a `type` element. */
export interface ScalarText {
  /** The element code (VALUE for an untyped value). */
  type: number;
  start: number;
  end: number;
  flags: number;
}
