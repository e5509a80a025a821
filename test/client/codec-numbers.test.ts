/**
 * Issue 11, numbers and bytes from the wire. One rule for integers: a `number` when exact
 * (|v| <= 2^53 - 1), else a `bigint`; `<i4>` is 32-bit, `<int>` and `<i8>` 64-bit, and a value
 * outside its element's range is a ParseError. Base64 strictly per RFC 4648 (standard alphabet,
 * padding, zero pad bits), XML whitespace aside.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeMethodResponse, encodeMethodResponse } from '../../provider/client/codec';
import { ParseError } from '../../provider/client/errors';
import { decodeFails, decodeValue as decodeDocument, response } from '../support/codec-documents';

function decodeValue(valueXml: string) {
  return decodeDocument(response(valueXml));
}

function refused(valueXml: string, message: RegExp): void {
  decodeFails(response(valueXml), ParseError, message);
}

const INT32_MIN = -(2n ** 31n);
const INT32_MAX = 2n ** 31n - 1n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** What the rule says an in-range integer decodes to. */
function expected(value: bigint): number | bigint {
  return value >= -MAX_SAFE && value <= MAX_SAFE ? Number(value) : value;
}

void describe('integers from the wire (issue 11)', () => {
  void it('are a number when exact and a bigint otherwise, in every element', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.bigInt({ min: INT64_MIN, max: INT64_MAX }),
          fc.bigInt({ min: -MAX_SAFE - 3n, max: -MAX_SAFE + 3n }),
          fc.bigInt({ min: MAX_SAFE - 3n, max: MAX_SAFE + 3n }),
          fc.constantFrom(INT64_MIN, INT64_MAX, 0n, -1n),
        ),
        fc.constantFrom('int', 'i8', 'i4'),
        fc.nat({ max: 3 }),
        fc.boolean(),
        (value, element, zeros, plus) => {
          const sign = value < 0n ? '-' : plus ? '+' : '';
          const magnitude = value < 0n ? -value : value;
          const xml = `<${element}>${sign}${'0'.repeat(zeros)}${magnitude}</${element}>`;
          if (element === 'i4' && (value < INT32_MIN || value > INT32_MAX)) {
            return refused(xml, /out of range for <i4>/);
          }
          const decoded = decodeValue(xml);
          assert.equal(decoded, expected(value), xml);
          const exact = value >= -MAX_SAFE && value <= MAX_SAFE;
          assert.equal(typeof decoded, exact ? 'number' : 'bigint', xml);
        },
      ),
      { seed: 11, numRuns: 1000 },
    );
  });

  void it('refuse values beyond their element, without wrapping or rounding', () => {
    refused('<i4>2147483648</i4>', /"2147483648" is out of range for <i4>/);
    refused('<i4>-2147483649</i4>', /out of range for <i4>/);
    refused('<i8>9223372036854775808</i8>', /out of range for <i8>/);
    refused('<int>-9223372036854775809</int>', /out of range for <int>/);
    refused('<int>99999999999999999999999999</int>', /out of range for <int>/);
    refused(`<i8>${'9'.repeat(100_000)}</i8>`, /out of range for <i8>/);
    assert.equal(decodeValue('<i4>-2147483648</i4>'), -2147483648);
    assert.equal(decodeValue(`<i8>${'0'.repeat(40)}42</i8>`), 42);
    assert.equal(decodeValue('<i8>9223372036854775807</i8>'), INT64_MAX);
  });

  void it('read the same through references and CDATA as plain text', () => {
    assert.equal(decodeValue('<int>&#49;2</int>'), 12);
    assert.equal(decodeValue('<i8><![CDATA[9007199254740993]]></i8>'), 9007199254740993n);
    refused('<i4><![CDATA[4294967296]]></i4>', /out of range for <i4>/);
  });

  void it('round-trip through our encoder with the same types', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), (value) => {
        const decoded = decodeMethodResponse(encodeMethodResponse([value, Number(value)]));
        const exact = expected(value);
        assert.deepStrictEqual(decoded, {
          kind: 'value',
          // A number beyond 2^53 is written as <double>: it comes back as that number.
          value: [exact, typeof exact === 'number' ? exact : Number(value)],
        });
      }),
      { seed: 12, numRuns: 300 },
    );
  });
});

void describe('base64 from the wire (issue 11)', () => {
  void it('reads standard, padded base64, with line breaks anywhere', () => {
    assert.deepEqual(decodeValue('<base64>+/8=</base64>'), Buffer.from([0xfb, 0xff]));
    assert.deepEqual(decodeValue('<base64>aGVs\r\nbG8=\n</base64>'), Buffer.from('hello'));
    assert.deepEqual(decodeValue('<base64> a G k = </base64>'), Buffer.from('hi'));
    assert.deepEqual(decodeValue('<base64></base64>'), Buffer.alloc(0));
    assert.deepEqual(decodeValue('<base64/>'), Buffer.alloc(0));
  });

  void it('refuses the URL-safe alphabet, missing or misplaced padding, and non-zero pad bits', () => {
    for (const text of [
      '-_8=', // URL-safe for +/8=
      'aGk', // no padding
      'aGk==', // too much padding
      'aG=k', // padding inside
      'aGl=', // pad bits set ("hi" is aGk=)
      'aGVsbG9=', // pad bits set ("hello" is aGVsbG8=)
      '====',
      'aGk=aGk=', // padding before the end
      'aGk!',
    ]) {
      refused(`<base64>${text}</base64>`, /invalid base64/);
    }
  });

  void it('reads every byte string from its standard encoding, and from that only', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat({ max: 3 }), (bytes, breakEvery) => {
        const standard = Buffer.from(bytes).toString('base64');
        const wrapped = breakEvery === 0 ? standard : standard.replace(/(.{4})/g, '$1\n');
        assert.deepEqual(decodeValue(`<base64>${wrapped}</base64>`), Buffer.from(bytes));
        const urlSafe = standard.replace(/\+/g, '-').replace(/\//g, '_');
        if (urlSafe !== standard) refused(`<base64>${urlSafe}</base64>`, /invalid base64/);
        const unpadded = standard.replace(/=+$/, '');
        if (unpadded !== standard) refused(`<base64>${unpadded}</base64>`, /invalid base64/);
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});
