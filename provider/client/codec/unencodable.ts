/**
 * A value, or a character in one, that XML-RPC cannot carry. The path to it is filled in while
 * the stack unwinds; the encoder turns it into a TypeError naming the place.
 */
export class Unencodable extends Error {
  readonly path: (string | number)[] = [];

  constructor(readonly problem: string) {
    super(problem);
  }
}

/** Character `code` at `index` of a string is not an XML 1.0 character. */
export function unencodableCharacter(code: number, index: number): Unencodable {
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return new Unencodable(`string: ${name} at index ${index} is not allowed in XML 1.0`);
}
