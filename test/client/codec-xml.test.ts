/**
 * Issue 17, the decoder's own XML checks (it has no XML library under it): what well-formed XML
 * it accepts around XML-RPC (attributes, comments, processing instructions, CDATA, line ends),
 * what it refuses and as what, and that its fast path (whole members matched as byte runs) gives
 * what reading tag by tag gives.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeMethodResponse, encodeMethodResponse } from '../../provider/client/codec';
import * as errors from '../../provider/client/errors';
import { decodeFails, decodeValue, PROLOG, response } from '../support/codec-documents';

const { InvalidCharacter, NotWellFormed, ParseError, UnsupportedEncoding } = errors;

void describe('XML around the values', () => {
  void it('reads attributes and ignores them', () => {
    const body = `${PROLOG}<methodResponse a="1" b='&amp;2 > 1'><params x:y = "z"><param><value><int kind="n">5</int></value></param></params></methodResponse>`;
    assert.equal(decodeValue(body), 5);
  });

  void it('refuses malformed attributes as NotWellFormed', () => {
    const bad: [string, RegExp][] = [
      ['<methodResponse a="1" a="2"/>', /duplicate attribute a/],
      ['<methodResponse a=1/>', /not quoted/],
      ['<methodResponse a="x<y"/>', /'<' in an attribute value/],
      ['<methodResponse a="&nope;"/>', /undefined entity &nope;/],
      ['<methodResponse a="1"b="2"/>', /separated by spaces/],
      ['<methodResponse a/>', /has no value/],
      ['<methodResponse 1a="1"/>', /cannot start with/],
    ];
    for (const [body, message] of bad) decodeFails(body, NotWellFormed, message);
    decodeFails('<methodResponse a="\u0001"/>', InvalidCharacter, /U\+0001/);
  });

  void it('bounds tags: 64 attributes and 64 KiB at most (ParseError)', () => {
    const many = Array.from({ length: 65 }, (_, i) => `a${i}="${i}"`).join(' ');
    decodeFails(`<methodResponse ${many}/>`, ParseError, /more than 64 attributes/);
    decodeFails(
      `<methodResponse a="${'x'.repeat(70_000)}"/>`,
      ParseError,
      /longer than 65536 bytes/,
    );
  });

  void it('skips comments and processing instructions, joining the text around them', () => {
    assert.equal(decodeValue(response('<string>a<!-- x -->b<?pi y?>c</string>')), 'abc');
    assert.equal(decodeValue(response('a<!---->b')), 'ab');
    assert.equal(
      decodeValue(`${PROLOG}<?xml-stylesheet href="x"?><!-- c -->${response('<int>1</int>', '')}`),
      1,
    );
    decodeFails(
      response('<string>a<!-- x -- y -->b</string>'),
      NotWellFormed,
      /'--' inside a comment/,
    );
    decodeFails(response('<string>a<!- x -->b</string>'), NotWellFormed, /not a comment/);
  });

  void it('reads CDATA only inside the root, and refuses ]]> in text', () => {
    assert.equal(
      decodeValue(response('<string><![CDATA[a]]>&amp;<![CDATA[<b>]]></string>')),
      'a&<b>',
    );
    decodeFails(`<![CDATA[x]]>${response('1')}`, NotWellFormed, /CDATA outside the root/);
    decodeFails(response('<string>a]]>b</string>'), NotWellFormed, /']]>' is not allowed/);
    assert.equal(decodeValue(response('<string>a]]b>c</string>')), 'a]]b>c');
  });

  void it('takes an XML declaration only at the very start, and only a well-formed one', () => {
    decodeFails(` ${response('1')}`, NotWellFormed, /only allowed at the very start/);
    decodeFails(
      `${PROLOG}${PROLOG}<methodResponse/>`,
      NotWellFormed,
      /only allowed at the very start/,
    );
    decodeFails(
      '<?xml version="2.0"?><methodResponse/>',
      NotWellFormed,
      /malformed XML declaration/,
    );
    decodeFails(
      '<?xml encoding="UTF-8"?><methodResponse/>',
      NotWellFormed,
      /malformed XML declaration/,
    );
    decodeFails(
      '<?xml version="1.0" encoding="UTF-16"?><methodResponse/>',
      UnsupportedEncoding,
      /UTF-16/,
    );
    assert.equal(decodeValue(response('1', "<?xml version='1.1' standalone='yes'?>")), '1');
  });

  void it('turns CR LF and lone CR into LF, but keeps a CR written as &#13;', () => {
    assert.equal(decodeValue(response('<string>a\r\nb\rc&#13;d</string>')), 'a\nb\nc\rd');
    assert.equal(decodeValue(response('<string><![CDATA[a\r\nb]]></string>')), 'a\nb');
  });

  void it('checks names and characters', () => {
    decodeFails(response('<1int>1</1int>'), NotWellFormed, /cannot start with '1'/);
    decodeFails(response('<str\u00d7ing>x</str\u00d7ing>'), NotWellFormed, /invalid name/);
    decodeFails(response('<strïng>x</strïng>'), ParseError, /unknown element <strïng>/);
    assert.equal(decodeValue(response('<é:nil/>')), null);
    decodeFails(response('<string>\uFFFE</string>'), InvalidCharacter, /U\+FFFE/);
    decodeFails(response('<string>&#xFFFF;</string>'), InvalidCharacter, /&#xFFFF/);
    decodeFails(response('<string>&#1114112;</string>'), InvalidCharacter, /&#1114112/);
    // In a Latin-1 body the same bytes are three ordinary characters.
    const latin1 = Buffer.concat([
      Buffer.from(
        "<?xml version='1.0' encoding='iso-8859-1'?><methodResponse><params><param><value><string>",
      ),
      Buffer.from([0xef, 0xbf, 0xbe, 0xe9]),
      Buffer.from('</string></value></param></params></methodResponse>'),
    ]);
    assert.equal(decodeValue(latin1), '\u00ef\u00bf\u00be\u00e9');
  });

  void it('says where a problem is: line, and column in bytes', () => {
    decodeFails(
      '<methodResponse>\n<params>\n  </param>',
      NotWellFormed,
      /^NotWellFormed\(-32700\): 3:3: closing tag <\/param> does not match the open <params>$/,
    );
    decodeFails(
      response('<int>\n\n1x</int>'),
      ParseError,
      /^ParseError\(-32700\): 3:9: invalid integer/,
    );
    decodeFails(
      '<methodResponse>\n<params/>\n<a',
      NotWellFormed,
      /^NotWellFormed\(-32700\): 3:3: unexpected end/,
    );
  });
});

void describe('the fast path gives what reading tag by tag gives', () => {
  /**
   * Whitespace where it means nothing (after end tags and container start tags) sends every
   * member and item down the tag-by-tag path.
   */
  const spaced = (xml: string) =>
    xml.replace(
      /(<\/[^>]+>|<(?:struct|array|data|member|params|param|methodResponse)>)(?=<)/g,
      '$1\n ',
    );

  const scalar = fc.oneof(
    fc.integer(),
    fc.string({ maxLength: 8 }),
    fc.boolean(),
    fc.constant(null),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
    fc.constant(Buffer.from('hi')),
  );
  /** Structs of a few shapes, as a listing has: same keys, types that sometimes change. */
  const listing = fc.array(
    fc.record(
      {
        id: scalar,
        name: scalar,
        ['__proto__']: scalar,
        nested: fc.oneof(scalar, fc.dictionary(fc.constantFrom('a', 'b', 'c'), scalar)),
        list: fc.array(scalar, { maxLength: 3 }),
      },
      { requiredKeys: ['id'] },
    ),
    { maxLength: 8 },
  );

  void it('for listings of structs whose shapes repeat, change and break off', () => {
    fc.assert(
      fc.property(listing, (rows) => {
        const xml = encodeMethodResponse(rows);
        assert.deepStrictEqual(decodeMethodResponse(xml), decodeMethodResponse(spaced(xml)));
      }),
      { seed: 1717, numRuns: 500 },
    );
  });

  void it('keeps __proto__ an own member in every struct of a listing', () => {
    const rows = JSON.parse(
      '[{"__proto__": 1, "a": 2}, {"__proto__": 3, "a": 4}, {"__proto__": 5}]',
    );
    const decoded = decodeValue(encodeMethodResponse(rows)) as Record<string, unknown>[];
    for (const [i, row] of decoded.entries()) {
      assert.equal(Object.getPrototypeOf(row), Object.prototype);
      assert.deepEqual(Object.getOwnPropertyDescriptor(row, '__proto__')?.value, [1, 3, 5][i]);
    }
    assert.equal(({} as { a?: unknown }).a, undefined);
  });

  void it('reports a bad value in a shaped member as tag by tag', () => {
    const rows = [{ id: 1 }, { id: 2 }];
    const xml = encodeMethodResponse(rows).replace('<int>2</int>', '<int>2x</int>');
    decodeFails(xml, ParseError, /invalid integer "2x"/);
    decodeFails(spaced(xml), ParseError, /invalid integer "2x"/);
  });
});
