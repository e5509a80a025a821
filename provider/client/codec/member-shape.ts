/**
 * The shape of a struct member: its name, and the bytes from `<member>` to the text of its value
 * (`<member><name>id</name><value><int>`). The structs of a listing repeat their members in the
 * same order with the same types, so the reader remembers, per nesting depth and position, the
 * shape seen last, and the scanner first tries the member ahead against it as one template.
 */

import { ByteTemplate } from './byte-template';

export class MemberShape {
  readonly prefix: ByteTemplate;

  constructor(
    readonly key: string,
    prefixBytes: Uint8Array,
    /** The element code of the value's type (VALUE when untyped). */
    readonly type: number,
  ) {
    this.prefix = new ByteTemplate(prefixBytes);
  }
}
