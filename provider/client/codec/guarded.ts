import { ParseError } from '../errors';
import { clip } from './messages';

/**
 * Runs a decode step, turning anything that is not already a ParseError into one: whatever the
 * input, decoding throws nothing else.
 */
export function guarded<T>(decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (err instanceof ParseError) throw err;
    // RangeError for a string too long for the engine, and anything else unforeseen.
    throw new ParseError(
      -32700,
      `cannot decode: ${clip(String((err as Error)?.message ?? err), 200)}`,
    );
  }
}
