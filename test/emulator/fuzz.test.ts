/**
 * Bounded fuzz of the emulator's request handling: 10,000+ mutated XML-RPC requests
 * (truncated, retyped, deeply nested, huge strings, entity declarations, random bytes, odd
 * numbers, hostile member names, random masks and filters) from a fixed seed, 8 at a time.
 * Every request must get an HTTP answer within the timeout (a fault, a result, or 413 for an
 * oversized body) and the server must still answer a normal call at the end.
 */
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, describe, it } from 'node:test';
import { mulberry32 } from '../../emulator/prng';
import { decodeResponse, encodeCall } from '../support/emulator-client';
import { guestTemplate, useEmulator } from '../support/emulator-harness';
import { rawPost } from '../support/raw-post';

const REQUESTS = 10_000;
const CONCURRENCY = 8;
const SEED = 20_261_122;
const TIMEOUT_MS = 15_000;
const MAX_BODY = 256 * 1024;

const h = useEmulator({ maxBodyBytes: MAX_BODY });

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)];
const int = (rand: Rand, min: number, max: number) => min + Math.floor(rand() * (max - min + 1));

const PROPS = [
  'id',
  'hostname',
  'domain',
  'maxMemory',
  'datacenter',
  'name',
  'tagReferences',
  'tag',
  'bogus',
  '__proto__',
  'constructor',
  'toString',
  'activeTransaction',
  'createDate',
];
const OPS = [
  '',
  '!= ',
  '^= ',
  '$= ',
  '*= ',
  '_= ',
  '~ ',
  '!~ ',
  '< ',
  '>= ',
  'in',
  'orderBy',
  'betweenDate',
  'is null',
  'not null',
  'or',
  'isDate',
  '> sysdate - ',
];
const WEIRD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  2 ** 31,
  1.5,
  '',
  'x'.repeat(300),
  '\u00e9\u2713',
  [],
  {},
  [[[]]],
  { a: { b: {} } },
];

function randomMask(rand: Rand, depth = 0): string {
  const items = Array.from({ length: int(rand, 0, 4) }, () => {
    const name = pick(rand, PROPS);
    if (depth < 3 && rand() < 0.3) return `${name}[${randomMask(rand, depth + 1)}]`;
    if (depth < 3 && rand() < 0.2) return `${name}.${pick(rand, PROPS)}`;
    return name;
  });
  const body = items.join(pick(rand, [',', ', ', ',\n ']));
  return depth > 0
    ? body
    : pick(rand, [
        `mask[${body}]`,
        body,
        `[mask.${items[0] ?? 'id'}]`,
        `filteredMask[${body}]`,
        `mask.${body}`,
        `mask[${body}`,
        body + ']]',
      ]);
}

function randomFilter(rand: Rand, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = int(rand, 0, 3); i > 0; i -= 1) {
    const key = depth === 0 && rand() < 0.6 ? 'virtualGuests' : pick(rand, PROPS);
    if (depth < 4 && rand() < 0.4) out[key] = randomFilter(rand, depth + 1);
    else {
      const op = pick(rand, OPS);
      const leaf: Record<string, unknown> = {
        operation:
          rand() < 0.2
            ? pick(rand, WEIRD_VALUES)
            : `${op}${pick(rand, ['1', 'abc', '(a+)+', '01/01/2026 0:0:0', '*', ''])}`,
      };
      if (rand() < 0.4) {
        leaf.options =
          rand() < 0.2
            ? pick(rand, WEIRD_VALUES)
            : [
                {
                  name: pick(rand, ['data', 'sort', 'startDate', 'endDate', 'date', 'sortOrder']),
                  value: [pick(rand, WEIRD_VALUES), 'ASC', '1/2/2026 3:4:5'],
                },
              ];
      }
      out[key] = leaf;
    }
  }
  return out;
}

const headers = (extra: Record<string, unknown>, user: 'demo' | 'other' = 'demo') => ({
  headers: { authenticate: { username: user, apiKey: h.emu.accounts[user].apiKey }, ...extra },
});

/** Valid-shaped calls with random masks, filters, ids and arguments. */
function baseCall(rand: Rand): { service: string; body: string } {
  const kind = int(rand, 0, 9);
  const extra: Record<string, unknown> = {};
  if (rand() < 0.5)
    extra.Svc_ObjectMask = { mask: rand() < 0.9 ? randomMask(rand) : pick(rand, WEIRD_VALUES) };
  if (rand() < 0.3)
    extra.resultLimit = {
      limit: pick(rand, [0, 1, 5, -3, 'x', 1e12]),
      offset: pick(rand, [0, 2, null, 'y']),
    };
  switch (kind) {
    case 0:
    case 1:
      if (rand() < 0.7)
        extra.Svc_AccountObjectFilter =
          rand() < 0.9 ? randomFilter(rand) : pick(rand, WEIRD_VALUES);
      return {
        service: 'Svc_Account',
        body: encodeCall(
          pick(rand, [
            'getVirtualGuests',
            'getTickets',
            'getObject',
            'getDomains',
            'getHardware',
            'getHourlyVirtualGuests',
          ]),
          [headers(extra)],
        ),
      };
    case 2: {
      const template = guestTemplate({ hostname: `fz${int(rand, 0, 99999)}` });
      if (rand() < 0.8) template[pick(rand, Object.keys(template))] = pick(rand, WEIRD_VALUES);
      if (rand() < 0.3) template[pick(rand, PROPS)] = pick(rand, WEIRD_VALUES);
      // Guests are created in the other account so the demo account's listings stay small.
      return {
        service: 'Svc_Virtual_Guest',
        body: encodeCall(pick(rand, ['createObject', 'generateOrderTemplate', 'createObjects']), [
          headers(extra, 'other'),
          template,
        ]),
      };
    }
    case 3:
      extra.Svc_Virtual_GuestInitParameters = {
        id: pick(rand, [...WEIRD_VALUES, 100001, '100001']),
      };
      return {
        service: 'Svc_Virtual_Guest',
        body: encodeCall(
          pick(rand, [
            'getObject',
            'setTags',
            'editObject',
            'deleteObject',
            'powerOff',
            'getTagReferences',
            'getBogus',
          ]),
          [headers(extra), ...(rand() < 0.7 ? [pick(rand, WEIRD_VALUES)] : [])],
        ),
      };
    case 4:
      extra.Svc_TicketInitParameters = { id: pick(rand, [500001, 500004, 'abc', null]) };
      return {
        service: 'Svc_Ticket',
        body: encodeCall(
          pick(rand, ['getObject', 'addUpdate', 'getUpdates', 'createStandardTicket']),
          [headers(extra), { entry: pick(rand, WEIRD_VALUES) }, pick(rand, WEIRD_VALUES)],
        ),
      };
    case 5:
      return {
        service: 'Svc_User_Customer',
        body: encodeCall('getPortalLoginToken', [
          { headers: {} },
          pick(rand, ['demo', 'demo.ops', null, 7]),
          pick(rand, ['demo-password', 'x', null]),
          pick(rand, WEIRD_VALUES),
          pick(rand, WEIRD_VALUES),
        ]),
      };
    case 6:
      return {
        service: 'Svc_Dns_Domain_ResourceRecord',
        body: encodeCall('createObject', [
          headers(extra),
          {
            host: pick(rand, WEIRD_VALUES),
            data: pick(rand, ['192.0.2.1', '::1', 'x', null]),
            ttl: pick(rand, WEIRD_VALUES),
            type: pick(rand, ['a', 'MX', 'zz', null]),
            domainId: pick(rand, [400001, 400002, 'x']),
          },
        ]),
      };
    case 7:
      return {
        service: pick(rand, ['Svc_Nope', 'Account', 'Svc_', 'Svc_Account%00', 'Svc_Account%2Fx']),
        body: encodeCall('getObject', [headers(extra)]),
      };
    case 8:
      return {
        service: 'Svc_Location_Datacenter',
        body: encodeCall('getDatacenters', [
          pick(rand, [
            headers(extra),
            {},
            { headers: [] },
            'x',
            { headers: { authenticate: pick(rand, WEIRD_VALUES) } },
          ]),
        ]),
      };
    default:
      return {
        service: 'Svc_Dns_Domain',
        body: encodeCall(pick(rand, ['getByDomainName', 'createObject', 'getObject']), [
          headers(extra),
          pick(rand, [...WEIRD_VALUES, 'example.com']),
        ]),
      };
  }
}

const TYPE_TAGS = [
  'int',
  'i4',
  'i8',
  'string',
  'boolean',
  'double',
  'struct',
  'array',
  'nil',
  'base64',
  'dateTime.iso8601',
  'member',
  'name',
  'value',
  'data',
  'params',
  'param',
  'methodName',
  'bogus',
];

function randomBytes(rand: Rand, n: number): Buffer {
  const buf = Buffer.alloc(n);
  for (let i = 0; i < n; i += 1) buf[i] = Math.floor(rand() * 256);
  return buf;
}

/** One mutation of a valid request body. */
function mutate(rand: Rand, body: string): string | Buffer {
  switch (int(rand, 0, 11)) {
    case 0:
      return body.slice(0, int(rand, 0, body.length - 1));
    case 1: {
      const from = pick(rand, TYPE_TAGS);
      const to = pick(rand, TYPE_TAGS);
      return body.split(`<${from}>`).join(`<${to}>`).split(`</${from}>`).join(`</${to}>`);
    }
    case 2: {
      const depth = pick(rand, [40, 200, 600]);
      const nested =
        '<value><array><data>'.repeat(depth) +
        '<value><int>1</int></value>' +
        '</data></array></value>'.repeat(depth);
      return body.replace('</params>', `<param>${nested}</param></params>`);
    }
    case 3: {
      const size = pick(rand, [8_000, 40_000, 270_000, 300_000]);
      return body.replace(
        '</params>',
        `<param><value><string>${'A'.repeat(size)}</string></value></param></params>`,
      );
    }
    case 4:
      return (
        pick(rand, [
          `<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "${'x'.repeat(50)}"><!ENTITY b "&a;&a;&a;&a;&a;">]>`,
          '<!DOCTYPE m SYSTEM "http://127.0.0.1:1/x.dtd">',
          '<!doctype html>',
          '<?xml version="1.0"?><!ENTITY x SYSTEM "file:///etc/passwd">',
        ]) + body.replace(/<\?xml[^>]*>/, '').replace('<string>', '<string>&b;&x;')
      );
    case 5: {
      const at = int(rand, 0, body.length);
      return Buffer.concat([
        Buffer.from(body.slice(0, at)),
        randomBytes(rand, int(rand, 1, 64)),
        Buffer.from(body.slice(at)),
      ]);
    }
    case 6:
      return randomBytes(rand, int(rand, 0, 2048));
    case 7:
      return body
        .replace(
          /<int>\d+<\/int>/g,
          () =>
            `<int>${pick(rand, ['NaN', '1e400', '-0', '99999999999999999999', '', '0x10', ' 7 '])}</int>`,
        )
        .replace(
          /<boolean>[01]<\/boolean>/g,
          `<boolean>${pick(rand, ['true', '2', ''])}</boolean>`,
        );
    case 8:
      return body.replace(
        /<name>[^<]*<\/name>/,
        `<name>${pick(rand, ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', ''])}</name>`,
      );
    case 9: {
      const tags = body.match(/<\/?[a-zA-Z.0-9]+\/?>/g) ?? [];
      const victim = pick(rand, tags.length ? tags : ['<params>']);
      return rand() < 0.5 ? body.replace(victim, '') : body.replace(victim, victim + victim);
    }
    case 10:
      return Buffer.concat([
        Buffer.from(body.slice(0, body.length >> 1)),
        Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x00, 0xed, 0xa0, 0x80]),
        Buffer.from(body.slice(body.length >> 1)),
      ]);
    default:
      return body.replace(
        '<params>',
        `<params>${'<param><value><struct><member><name>k</name><value><string>v</string></value></member></struct></value></param>'.repeat(int(rand, 1, 100))}`,
      );
  }
}

interface Outcome {
  kind: 'result' | 'fault' | 'too-large';
}

// node:http with a keep-alive pool: fetch costs several ms per request on this class of machine.
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
after(() => agent.destroy());

async function post(url: string, body: string | Buffer): Promise<{ status: number; text: string }> {
  const res = await rawPost(url, body, { agent, timeoutMs: TIMEOUT_MS });
  return { status: res.status, text: res.body.toString('utf8') };
}

const FAULT =
  /^<\?xml version="1\.0"\?><methodResponse><fault><value><struct><member><name>faultCode<\/name><value><string>[^<]+<\/string><\/value><\/member><member><name>faultString<\/name><value><string>(?:[^<]|<!\[CDATA\[)/;
const RESULT = /^<\?xml version="1\.0" encoding="utf-8"\?>\n<params><param><value>/;

/**
 * Every answer is checked for shape; one in FULL_DECODE_EVERY is also fully decoded (decoding
 * each one costs as much as the server's own parsing, in the same process).
 */
const FULL_DECODE_EVERY = 10;

async function send(
  url: string,
  service: string,
  body: string | Buffer,
  index: number,
): Promise<Outcome> {
  const res = await post(`${url}/${service}`, body);
  if (res.status === 413) return { kind: 'too-large' };
  assert.equal(res.status, 200, `HTTP ${res.status}: ${res.text.slice(0, 200)}`);
  const isFault = FAULT.test(res.text);
  assert.ok(res.text.endsWith(isFault ? '</methodResponse>' : '</params>'), res.text.slice(-200));
  assert.ok(isFault || RESULT.test(res.text), res.text.slice(0, 300));
  if (index % FULL_DECODE_EVERY === 0) {
    const decoded = await decodeResponse(res.text);
    assert.equal(Boolean(decoded.fault), isFault);
    if (decoded.fault) assert.equal(typeof decoded.fault.faultCode, 'string');
  }
  return { kind: isFault ? 'fault' : 'result' };
}

describe('fuzz', () => {
  it(
    `answers ${REQUESTS} mutated requests and stays responsive`,
    // A hang fails it; a machine busy with other tests may take minutes (about 40 s when idle).
    { timeout: 600_000 },
    async () => {
      const rand = mulberry32(SEED);
      // Cases are drawn from the seed in index order (synchronously, whichever worker asks), so
      // the sequence does not depend on timing; they are not all kept in memory at once.
      const nextCase = () => {
        const base = baseCall(rand);
        return rand() < 0.25 ? base : { service: base.service, body: mutate(rand, base.body) };
      };
      const counts = { result: 0, fault: 0, 'too-large': 0 };
      let next = 0;
      const worker = async () => {
        while (next < REQUESTS) {
          const index = next++;
          const { service, body } = nextCase();
          try {
            counts[(await send(h.emu.url, service, body, index)).kind] += 1;
          } catch (err) {
            // The failing body is shown without its API key (test logs are checked for credentials).
            const shown = (Buffer.isBuffer(body) ? body.toString('latin1') : body)
              .slice(0, 600)
              .replace(/[0-9a-f]{64}/gi, '<key>');
            throw new Error(`case ${index} (${service}): ${(err as Error).message}\n${shown}`);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      assert.equal(counts.result + counts.fault + counts['too-large'], REQUESTS);
      assert.ok(counts.result > 100, JSON.stringify(counts));
      assert.ok(counts.fault > 1000, JSON.stringify(counts));

      const account = await h.demo.call<{ companyName: string }>('Account', 'getObject');
      assert.equal(account.companyName, 'Svc Demo Company');
      const stats = h.emu.stats();
      assert.ok(stats.requests >= REQUESTS);
      assert.equal(stats.faults['-32603'] ?? 0, 0, 'no internal errors');
    },
  );
});
