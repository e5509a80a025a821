/** XML-RPC documents and decoding helpers shared by the codec tests. */

import assert from 'node:assert/strict';
import { decodeMethodResponse, type XmlRpcValue } from '../../provider/client/codec';
import { ParseError } from '../../provider/client/errors';

export const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>';

/** A methodResponse whose single param holds `valueXml` (the content of <value>). */
export function response(valueXml: string, prolog = PROLOG): string {
  return `${prolog}<methodResponse><params><param><value>${valueXml}</value></param></params></methodResponse>`;
}

/** The value of a response document (a fault fails the test). */
export function decodeValue(body: string | Buffer): XmlRpcValue {
  const decoded = decodeMethodResponse(body);
  assert.equal(decoded.kind, 'value');
  return decoded.value;
}

/** Asserts that decoding throws exactly `cls` (not a subclass) with a message matching `message`. */
export function decodeFails(body: string | Buffer, cls: typeof ParseError, message: RegExp): void {
  assert.throws(
    () => decodeMethodResponse(body),
    (err) => {
      assert.ok(err instanceof ParseError, String(err));
      assert.equal(err.constructor, cls, `${err.name}: ${err.message}`);
      assert.match(err.message, message);
      return true;
    },
  );
}

export type Outcome = { value: unknown } | { error: string; message: string };

/** What a decode gives: the value, or the class and message of its ParseError. */
export function outcome(decode: () => unknown): Outcome {
  try {
    return { value: decode() };
  } catch (err) {
    assert.ok(err instanceof ParseError, `not a ParseError: ${String(err)}`);
    return { error: err.constructor.name, message: err.message };
  }
}
