/**
 * The XML-RPC wire format, through the `xmlrpc` package's own serializer and deserializer.
 * Its sax-based parser runs in loose mode, so it is guarded: DOCTYPE/ENTITY refused before
 * parsing, input fed in slices with event-loop turns between them and a deadline, and the
 * decoded values copied into null-prototype objects with limits on depth, size and characters.
 * Then the `headers` struct (authentication, init parameters, mask, filter, result limit) is
 * read without depending on member order.
 */
import type { Readable, Writable } from 'node:stream';
import Deserializer from 'xmlrpc/lib/deserializer';
import * as serializer from 'xmlrpc/lib/serializer';
import { ApiFault, FaultCodes, invalidParams, notWellFormed } from './errors';

export interface DecodedCall {
  method: string;
  params: unknown[];
}

const SLICE_CHARS = 64 * 1024;
const MAX_DEPTH = 32;
const MAX_NODES = 200_000;
/** Characters XML 1.0 cannot carry: a string holding one could never be sent back. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const INVALID_XML_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

/** Decodes a methodCall body; faults with -32700 (or -32702) on anything unusable. */
export async function decodeCall(body: Buffer, deadline: number): Promise<DecodedCall> {
  precheck(body);
  const decoded = await new Promise<{ method: string; params: unknown[] }>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | null, value?: { method: string; params: unknown[] }) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve(value!);
    };
    const source = slicedSource(body.toString('utf8'), deadline, finish, () => settled);
    try {
      new Deserializer('utf8').deserializeMethodCall(source, (err, method, params) => {
        if (err) finish(notWellFormed(cleanParserMessage(err)));
        else finish(null, { method: method ?? '', params: params ?? [] });
      });
    } catch (err) {
      finish(notWellFormed(cleanParserMessage(err as Error)));
    }
  });
  if (!/^[A-Za-z_][A-Za-z0-9_.]*$/.test(decoded.method)) {
    throw notWellFormed(`methodName '${decoded.method.slice(0, 80)}' is not a method name`);
  }
  const budget = { nodes: 0 };
  return { method: decoded.method, params: decoded.params.map((p) => sanitize(p, 1, budget)) };
}

/**
 * The part of a Readable the deserializer uses (setEncoding, on, pipe), feeding its sax stream
 * directly in slices with an event-loop turn between them, so one large body cannot hold the
 * loop for long and a deadline can stop it. Cheaper than a stream for the usual small body.
 */
function slicedSource(
  text: string,
  deadline: number,
  finish: (err: Error) => void,
  done: () => boolean,
): Readable {
  const source = {
    setEncoding: () => source,
    on: () => source,
    pipe(parser: Writable) {
      const step = (offset: number) => {
        if (done()) return;
        try {
          if (Date.now() > deadline)
            throw new ApiFault(FaultCodes.internal, 'Request processing timed out.');
          parser.write(text.slice(offset, offset + SLICE_CHARS));
          if (offset + SLICE_CHARS >= text.length) parser.end();
          else setImmediate(step, offset + SLICE_CHARS);
        } catch (err) {
          finish(err instanceof ApiFault ? err : notWellFormed(cleanParserMessage(err as Error)));
        }
      };
      step(0);
      return parser;
    },
  };
  return source as unknown as Readable;
}

function precheck(body: Buffer): void {
  if (body.length === 0) throw notWellFormed('the request body is empty');
  // A DTD is never needed by XML-RPC; refusing it rules out entity expansion of any kind.
  const text = body.toString('latin1');
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) {
    throw notWellFormed('DOCTYPE and ENTITY declarations are not allowed');
  }
  if (!/<methodCall[\s>]/i.test(text))
    throw notWellFormed('the document is not an XML-RPC methodCall');
}

function cleanParserMessage(err: Error): string {
  return String(err.message || err)
    .split('\n')[0]
    .slice(0, 200);
}

/** Copies a decoded value into plain data (null-prototype structs) within limits. */
function sanitize(value: unknown, depth: number, budget: { nodes: number }): unknown {
  budget.nodes += 1;
  if (budget.nodes > MAX_NODES)
    throw invalidParams(`the request has more than ${MAX_NODES} values`);
  if (depth > MAX_DEPTH) throw invalidParams(`values are nested deeper than ${MAX_DEPTH} levels`);
  if (typeof value === 'string') {
    if (INVALID_XML_CHARS.test(value)) {
      throw new ApiFault(
        FaultCodes.invalidCharacter,
        'Invalid character for encoding: a string holds a control character XML cannot carry.',
      );
    }
    return value;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidParams('a number is not finite');
    return value;
  }
  if (value === null || typeof value === 'boolean') return value;
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map((v) => sanitize(v, depth + 1, budget));
  if (typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value)) {
      if (INVALID_XML_CHARS.test(key)) {
        throw new ApiFault(
          FaultCodes.invalidCharacter,
          'Invalid character for encoding: a member name holds a control character.',
        );
      }
      out[key] = sanitize((value as Record<string, unknown>)[key], depth + 1, budget);
    }
    return out;
  }
  throw invalidParams(`unsupported value of type ${typeof value}`);
}

// ---------------------------------------------------------------------------------------------
// Encoding

const METHOD_RESPONSE = '<?xml version="1.0"?><methodResponse>';
/** What the real API answers (no <methodResponse>); softlayer-go reads lists only in this shape. */
const API_PROLOG = '<?xml version="1.0" encoding="utf-8"?>\n';

/**
 * A result as the real API sends it: `<?xml version="1.0" encoding="utf-8"?>` and a bare
 * `<params>` document (Python's xmlrpc.client and this project's client accept it; softlayer-go's
 * decoder only takes a top-level array in this shape).
 */
export function encodeResponse(value: unknown): string {
  const xml = serializer.serializeMethodResponse(value);
  return API_PROLOG + xml.slice(METHOD_RESPONSE.length, -'</methodResponse>'.length);
}

/** Fault codes go out as strings, as the real API sends them. Echoed input is made XML-safe. */
export function encodeFault(fault: ApiFault): string {
  const scrub = (text: string) => text.replace(new RegExp(INVALID_XML_CHARS.source, 'g'), '\uFFFD');
  return serializer.serializeFault({
    faultCode: scrub(String(fault.faultCode)),
    faultString: scrub(fault.faultString),
  });
}

// ---------------------------------------------------------------------------------------------
// API headers

export type Authenticate =
  | { kind: 'apiKey'; username: string; apiKey: string }
  | { kind: 'token'; userId: number; authToken: string };

export interface CallHeaders {
  authenticate?: Authenticate;
  id?: unknown;
  mask?: string | Record<string, unknown>;
  filter?: Record<string, unknown>;
  limit?: number;
  offset?: number;
}

const isStruct = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && !Buffer.isBuffer(v);

/** Splits params into the `headers` struct and the method's own arguments. */
export function splitParams(params: unknown[]): {
  headers: Record<string, unknown>;
  args: unknown[];
} {
  if (params.length === 0)
    return { headers: Object.create(null) as Record<string, unknown>, args: [] };
  const [first, ...args] = params;
  if (!isStruct(first) || !Object.hasOwn(first, 'headers')) {
    throw invalidParams(
      "the first parameter must be a struct with a 'headers' member (an empty struct when there are none)",
    );
  }
  const headers = first.headers;
  if (!isStruct(headers)) throw invalidParams("'headers' must be a struct");
  return { headers, args };
}

/** Reads the API headers for a call to `Svc_<service>`. */
export function readHeaders(service: string, headers: Record<string, unknown>): CallHeaders {
  const out: CallHeaders = {};
  const keys = Object.keys(headers);
  const find = (exact: string, suffix: string) =>
    Object.hasOwn(headers, exact) ? exact : keys.find((k) => k.endsWith(suffix));

  if (Object.hasOwn(headers, 'authenticate'))
    out.authenticate = readAuthenticate(headers.authenticate);

  const initKey = find(`${service}InitParameters`, 'InitParameters');
  if (initKey) {
    const init = headers[initKey];
    if (!isStruct(init)) throw invalidParams(`'${initKey}' must be a struct like {id: 123}`);
    out.id = init.id;
  }

  const maskKey = Object.hasOwn(headers, 'Svc_ObjectMask')
    ? 'Svc_ObjectMask'
    : find(`${service}ObjectMask`, 'ObjectMask');
  if (maskKey) {
    const holder = headers[maskKey];
    if (!isStruct(holder))
      throw invalidParams(`'${maskKey}' must be a struct like {mask: 'mask[id]'}`);
    const mask = holder.mask;
    if (typeof mask === 'string' || isStruct(mask)) out.mask = mask;
    else if (mask !== undefined && mask !== null)
      throw invalidParams(`'${maskKey}.mask' must be a string or a struct`);
  }

  const filterKey = find(`${service}ObjectFilter`, 'ObjectFilter');
  if (filterKey) {
    const filter = headers[filterKey];
    if (!isStruct(filter)) throw invalidParams(`'${filterKey}' must be a struct`);
    out.filter = filter;
  }

  if (Object.hasOwn(headers, 'resultLimit')) {
    const limit = headers.resultLimit;
    if (!isStruct(limit))
      throw invalidParams("'resultLimit' must be a struct like {limit: 10, offset: 0}");
    out.limit = readCount(limit.limit, 'resultLimit.limit');
    out.offset = readCount(limit.offset, 'resultLimit.offset');
  }
  return out;
}

function readCount(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
    throw invalidParams(`'${name}' must be a non-negative integer`);
  }
  return n;
}

function readAuthenticate(value: unknown): Authenticate | undefined {
  if (value === null || value === undefined) return undefined;
  if (!isStruct(value)) throw invalidParams("'authenticate' must be a struct");
  if (value.authToken !== undefined || value.complexType === 'PortalLoginToken') {
    const userId = typeof value.userId === 'string' ? Number(value.userId) : value.userId;
    if (
      typeof userId !== 'number' ||
      !Number.isInteger(userId) ||
      typeof value.authToken !== 'string'
    ) {
      throw invalidParams(
        "token 'authenticate' needs an integer 'userId' and a string 'authToken'",
      );
    }
    return { kind: 'token', userId, authToken: value.authToken };
  }
  if (typeof value.username !== 'string' || typeof value.apiKey !== 'string') {
    throw invalidParams(
      "'authenticate' needs string 'username' and 'apiKey' (or 'userId' and 'authToken')",
    );
  }
  return { kind: 'apiKey', username: value.username, apiKey: value.apiKey };
}
