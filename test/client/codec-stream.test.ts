/**
 * Issue 17, decoding as the body arrives (`createResponseDecoder`): whatever the chunking, the
 * outcome is the one of decoding the whole body at once, value or error alike, including the
 * charset rules (UTF-8 whatever the declaration, Latin-1 only when declared and not UTF-8).
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { serializeMethodResponse } from 'xmlrpc/lib/serializer';
import {
  createResponseDecoder,
  decodeMethodResponse,
  encodeMethodResponse,
  type DecodedResponse,
  type DecodeLimits,
} from '../../provider/client/codec';
import { InvalidCharacter, NotWellFormed, ParseError } from '../../provider/client/errors';
import { outcome, PROLOG } from '../support/codec-documents';

/** Decodes `body` cut at `cuts` (offsets, any order, duplicates allowed). */
function decodeInChunks(body: Buffer, cuts: number[], limits?: DecodeLimits): DecodedResponse {
  const decoder = createResponseDecoder(limits);
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    decoder.write(body.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  decoder.write(body.subarray(from));
  return decoder.end();
}

function bytewise(body: Buffer): number[] {
  return Array.from({ length: body.length }, (_, i) => i);
}

/** Documents that exercise every kind of token, each cut in all the places tested below. */
const DOCUMENTS = [
  encodeMethodResponse([
    { id: 1, name: 'web-1', tags: ['a', 'b'], on: true, fee: 0.5, when: new Date(0) },
    { id: 2, name: 'wéb-2 ☃ 𝄞', tags: [], on: false, fee: -1.25, when: new Date(1e12) },
    { id: 3, name: 'x & <y>', tags: [null], on: true, fee: 3, blob: Buffer.from('hi') },
  ]),
  [
    "<?xml version='1.0' encoding='iso-8859-1'?>",
    '<!-- a comment --><?pi data?>',
    '<methodResponse>',
    '<params><param><value><struct>',
    '<member><name>a</name><value><string><![CDATA[<b> & ]]]]><![CDATA[>]]></string></value></member>',
    '<member>\r\n<name>b&#x20AC;</name>\n<value><i8>9007199254740993</i8></value></member>',
    '<member><name>c</name><value><ex:nil/></value></member>',
    '<member><name>d</name><value>untyped &amp; &#60;raw&#x3e;</value></member>',
    '<member><name>e</name><value><apache:nil xmlns:apache="urn:x" a=\'1\'></apache:nil></value></member>',
    '</struct></value></param></params>',
    '</methodResponse>\n<!-- after -->\n',
  ].join('\n'),
  `\ufeff${PROLOG}<methodResponse><fault><value><struct><member><name>faultCode</name><value><int>4</int></value></member><member><name>faultString</name><value><string>no</string></value></member></struct></value></fault></methodResponse>`,
];

void describe('decoding as the body arrives (issue 17)', () => {
  void it('gives the same value as a whole decode, cut at every byte and into single bytes', () => {
    for (const text of DOCUMENTS) {
      const body = Buffer.from(text, 'utf8');
      const whole = decodeMethodResponse(body);
      for (let cut = 0; cut <= body.length; cut++) {
        assert.deepStrictEqual(decodeInChunks(body, [cut]), whole, `cut at ${cut}`);
      }
      assert.deepStrictEqual(decodeInChunks(body, bytewise(body)), whole, 'one byte at a time');
    }
  });

  void it('gives the same outcome as a whole decode for any value and chunking, ours and xmlrpc encodings', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        (value, fractions) => {
          for (const text of [encodeMethodResponse(value), serializeMethodResponse(value)]) {
            const body = Buffer.from(text, 'utf8');
            const cuts = fractions.map((f) => Math.floor(f * body.length));
            assert.deepStrictEqual(
              outcome(() => decodeInChunks(body, cuts)),
              outcome(() => decodeMethodResponse(body)),
            );
          }
        },
      ),
      { seed: 17, numRuns: 300 },
    );
  });

  void it('fails as a whole decode does, with the same class and message (line:column included)', () => {
    const broken = [
      `${PROLOG}<methodResponse>\n<params>\n</param>`,
      `${PROLOG}<methodResponse><params><param><value><string>a\u0001b</string></value></param></params></methodResponse>`,
      `${PROLOG}<methodResponse><params><param><value><string>&nbsp;</string></value></param></params></methodResponse>`,
      `${PROLOG}<!DOCTYPE x [<!ENTITY e "x">]><methodResponse/>`,
      `${PROLOG}<methodResponse><params><param><value><int>12abc</int></value></param></params></methodResponse>`,
      `${PROLOG}<methodResponse><params><param><value><int>1</int></value></param></params></methodResponse><x/>`,
      `${PROLOG}<methodResponse><params><param><value><int>1</int></value></param></params>`,
      '<?xml version="1.0" encoding="koi8-r"?><methodResponse/>',
      '',
    ];
    for (const text of broken) {
      const body = Buffer.from(text, 'utf8');
      const whole = outcome(() => decodeMethodResponse(body));
      assert.ok(typeof whole === 'object' && whole !== null && 'error' in whole, text);
      for (let cut = 0; cut <= body.length; cut++) {
        assert.deepStrictEqual(
          outcome(() => decodeInChunks(body, [cut])),
          whole,
          `${text} @${cut}`,
        );
      }
    }
  });

  void it('reads a character split between chunks, and a long text arriving in many chunks', () => {
    const text = 'é☃𝄞'.repeat(20_000);
    const body = Buffer.from(encodeMethodResponse({ text }), 'utf8');
    const cuts = Array.from({ length: 200 }, (_, i) => 1 + i * 997);
    assert.deepStrictEqual(decodeInChunks(body, cuts), { kind: 'value', value: { text } });
  });

  void it('reads Latin-1 bytes as Latin-1 when declared, even after UTF-8-looking chunks', () => {
    // "Ã©" in Latin-1 is also valid UTF-8 ("é"); the lone é (0xE9) later is not UTF-8, so the
    // whole body is Latin-1, the earlier chunks included.
    const body = Buffer.from(
      "<?xml version='1.0' encoding='ISO-8859-1'?><methodResponse><params><param><value><array><data>" +
        '<value>\u00c3\u00a9</value><value>caf\u00e9</value></data></array></value></param></params></methodResponse>',
      'latin1',
    );
    const expected = { kind: 'value', value: ['\u00c3\u00a9', 'caf\u00e9'] };
    assert.deepStrictEqual(decodeMethodResponse(body), expected);
    const secondValue = body.indexOf('caf');
    assert.deepStrictEqual(decodeInChunks(body, [secondValue]), expected);
    assert.deepStrictEqual(decodeInChunks(body, bytewise(body)), expected);
  });

  void it('refuses bytes that are not UTF-8 when no Latin-1 is declared, wherever they are', () => {
    const text = `${PROLOG}<methodResponse><params><param><value>caf\u00e9</value></param></params></methodResponse>`;
    const body = Buffer.from(text, 'latin1');
    for (const cuts of [[], [body.length - 30], bytewise(body)]) {
      assert.throws(() => decodeInChunks(body, cuts), InvalidCharacter);
    }
    // A UTF-8 sequence cut short by the end of the body.
    const truncated = Buffer.concat([
      Buffer.from(`${PROLOG}<methodResponse><params><param><value>`),
      Buffer.from([0xe2, 0x98]),
    ]);
    assert.throws(() => decodeInChunks(truncated, [truncated.length - 1]), InvalidCharacter);
  });

  void it('enforces maxBytes over the chunks so far, and keeps failing after an error', () => {
    const body = Buffer.from(encodeMethodResponse('x'.repeat(1000)));
    const decoder = createResponseDecoder({ maxBytes: 600 });
    decoder.write(body.subarray(0, 500));
    assert.throws(() => decoder.write(body.subarray(500)), { message: /larger than the 600-byte/ });
    assert.throws(() => decoder.write(Buffer.from('x')), { message: /larger than the 600-byte/ });
    assert.throws(() => decoder.end(), { message: /larger than the 600-byte/ });

    const broken = createResponseDecoder();
    const start = Buffer.from('<methodResponse><nope>' + ' '.repeat(300));
    assert.throws(() => broken.write(start), ParseError);
    assert.throws(() => broken.end(), { message: /unknown element <nope>/ });
  });

  void it('accepts any Uint8Array as a chunk', () => {
    const body = Buffer.from(encodeMethodResponse([1, 'two']));
    const decoder = createResponseDecoder();
    decoder.write(new Uint8Array(body.subarray(0, 10)));
    decoder.write(new Uint8Array(body.subarray(10)));
    assert.deepStrictEqual(decoder.end(), { kind: 'value', value: [1, 'two'] });
  });

  void it('reports an unfinished document at the end, not before', () => {
    const decoder = createResponseDecoder();
    decoder.write(Buffer.from(`${PROLOG}<methodResponse><params><param><value><str`));
    assert.throws(() => decoder.end(), NotWellFormed);
  });
});
