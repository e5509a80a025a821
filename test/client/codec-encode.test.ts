/**
 * Issue 17, the encoder's byte writer: member names written once and copied after, the output
 * buffer kept between encodings, integers written digit by digit, long texts written in slices.
 * Each test checks the exact output, or a round trip through our decoder and the xmlrpc package.
 */

import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import Deserializer from 'xmlrpc/lib/deserializer';
import {
  encodeMethodCall,
  encodeMethodResponse,
  type XmlRpcValue,
} from '../../provider/client/codec';
import { decodeValue, response } from '../support/codec-documents';

function member(name: string, valueXml: string): string {
  return `<member><name>${name}</name><value>${valueXml}</value></member>`;
}

function roundTrip(value: unknown): XmlRpcValue {
  return decodeValue(encodeMethodResponse(value));
}

function xmlrpcDecode(xml: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    new Deserializer('utf8').deserializeMethodResponse(
      Readable.from([Buffer.from(xml)]),
      (err, value) => (err ? reject(err) : resolve(value)),
    );
  });
}

void describe('the byte writer (issue 17)', () => {
  void it('writes the members of every struct, whether their names repeat, change or move', () => {
    const rows = [
      { a: 1, b: 'x' },
      { a: 2, c: true },
      { b: 'y', a: 3 },
      { a: 4 },
      { a: 5, b: 'z' },
    ];
    const struct = (...members: string[]) => `<value><struct>${members.join('')}</struct></value>`;
    assert.equal(
      encodeMethodResponse(rows),
      response(
        '<array><data>' +
          struct(member('a', '<int>1</int>'), member('b', '<string>x</string>')) +
          struct(member('a', '<int>2</int>'), member('c', '<boolean>1</boolean>')) +
          struct(member('b', '<string>y</string>'), member('a', '<int>3</int>')) +
          struct(member('a', '<int>4</int>')) +
          struct(member('a', '<int>5</int>'), member('b', '<string>z</string>')) +
          '</data></array>',
      ),
    );
    // A later call with other names at the same places.
    assert.equal(
      encodeMethodResponse({ b: 1, a: 2 }),
      response(`<struct>${member('b', '<int>1</int>')}${member('a', '<int>2</int>')}</struct>`),
    );
  });

  void it('escapes and UTF-8-encodes member names, also when they are copied', () => {
    const rows = [
      { 'é<&': 1, '☃': 'ü' },
      { 'é<&': 2, '☃': 'ß' },
    ];
    const xml = encodeMethodResponse(rows);
    assert.equal((xml.match(/<name>é&lt;&amp;<\/name>/g) ?? []).length, 2);
    assert.deepStrictEqual(roundTrip(rows), rows);
  });

  void it('keeps the output right across a large encoding, a small one and a large one again', () => {
    const large = Array.from({ length: 5000 }, (_, i) => ({ id: i, text: `row ${i} ✓` }));
    for (const value of [large, 'small', large, { n: 1 }]) {
      assert.deepStrictEqual(roundTrip(value), value);
    }
    assert.equal(encodeMethodResponse('small'), response('<string>small</string>'));
  });

  void it('writes a value that encodes another value while it is read (a getter)', () => {
    const inner: string[] = [];
    const value = {
      get a() {
        inner.push(encodeMethodResponse({ b: 'inner' }));
        return 'outer';
      },
    };
    assert.equal(
      encodeMethodResponse(value),
      response(`<struct>${member('a', '<string>outer</string>')}</struct>`),
    );
    assert.deepEqual(inner, [
      response(`<struct>${member('b', '<string>inner</string>')}</struct>`),
    ]);
  });

  void it('recovers from a value it refuses half-way', () => {
    assert.throws(() => encodeMethodResponse({ a: 'x'.repeat(100_000), b: NaN }), TypeError);
    assert.equal(encodeMethodResponse(1), response('<int>1</int>'));
  });

  void it('writes only own members even when Object.prototype has enumerable properties', () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 'yes';
    try {
      assert.equal(
        encodeMethodResponse({ a: 1 }),
        response(`<struct>${member('a', '<int>1</int>')}</struct>`),
      );
    } finally {
      delete proto.polluted;
    }
  });

  void it('writes every safe integer as its decimal digits', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const tag = n >= -(2 ** 31) && n <= 2 ** 31 - 1 ? 'int' : 'i8';
        assert.equal(encodeMethodResponse(n), response(`<${tag}>${String(n)}</${tag}>`));
      }),
      { seed: 170, numRuns: 500 },
    );
    for (const n of [0, -1, 9, 10, -10, 99, 100, 2 ** 32 - 1, 2 ** 32, -(2 ** 32)]) {
      assert.match(encodeMethodResponse(n), new RegExp(`>${n}</`));
    }
  });

  void it('writes long texts, with a surrogate pair across any slice boundary', () => {
    for (const offset of [16_382, 16_383, 16_384]) {
      const text = 'a'.repeat(offset) + '𝄞' + '&<>\r'.repeat(5000) + 'é';
      assert.equal(roundTrip(text), text);
    }
  });

  void it('is read back by the xmlrpc package, for long texts and many members too', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => ({
      id: i,
      name: `host-${i} & <co>`,
      note: 'é'.repeat(i),
    }));
    assert.deepStrictEqual(await xmlrpcDecode(encodeMethodResponse(rows)), rows);
    assert.match(
      encodeMethodCall('m', [rows[1]]),
      /<name>name<\/name><value><string>host-1 &amp; &lt;co&gt;/,
    );
  });
});
