/**
 * A tiny Svc XML-RPC client for the emulator tests: requests are written as raw XML (the way
 * the Python reference client lays them out: headers struct first, iso-8859-1 prolog, UTF-8
 * bytes), responses are read with the `xmlrpc` package's deserializer. Deliberately independent
 * of provider/client, which is tested against the emulator separately.
 */
import { Readable } from 'node:stream';
import Deserializer from 'xmlrpc/lib/deserializer';

export type Auth =
  { username: string; apiKey: string } | { userId: number; authToken: string } | null;

export interface CallOptions {
  args?: unknown[];
  id?: unknown;
  mask?: string | Record<string, unknown>;
  /** Header key for the mask; default `Svc_ObjectMask` for strings, `<Service>ObjectMask` for structs. */
  maskKey?: string;
  filter?: Record<string, unknown>;
  limit?: number;
  offset?: number;
  /** Overrides the client's default credentials; null sends none. */
  auth?: Auth;
  /** Extra members of the headers struct. */
  headers?: Record<string, unknown>;
  httpHeaders?: Record<string, string>;
}

export class SvcFault extends Error {
  constructor(
    readonly faultCode: unknown,
    readonly faultString: string,
  ) {
    super(`${String(faultCode)}: ${faultString}`);
    this.name = 'SvcFault';
  }
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: string;
  value?: unknown;
  fault?: SvcFault;
  totalItems?: number;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function encodeValue(value: unknown): string {
  if (value === null || value === undefined) return '<value><nil/></value>';
  if (typeof value === 'boolean') return `<value><boolean>${value ? 1 : 0}</boolean></value>`;
  if (typeof value === 'number') {
    return Number.isInteger(value)
      ? `<value><int>${value}</int></value>`
      : `<value><double>${value}</double></value>`;
  }
  if (typeof value === 'string') return `<value><string>${escapeXml(value)}</string></value>`;
  if (Buffer.isBuffer(value)) return `<value><base64>${value.toString('base64')}</base64></value>`;
  if (Array.isArray(value))
    return `<value><array><data>\n${value.map(encodeValue).join('\n')}\n</data></array></value>`;
  const members = Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `<member>\n<name>${escapeXml(k)}</name>\n${encodeValue(v)}\n</member>`)
    .join('\n');
  return `<value><struct>\n${members}\n</struct></value>`;
}

export function encodeCall(method: string, params: unknown[]): string {
  return (
    `<?xml version='1.0' encoding='iso-8859-1'?>\n<methodCall>\n<methodName>${escapeXml(method)}</methodName>\n<params>\n` +
    params.map((p) => `<param>\n${encodeValue(p)}\n</param>\n`).join('') +
    '</params>\n</methodCall>\n'
  );
}

/** A bare `<params>` answer (the real API's shape, which the emulator sends) as a methodResponse. */
export function asMethodResponse(body: string): string {
  const bare = /^(<\?xml[^>]*\?>\s*)<params>/.exec(body);
  return bare ? `${bare[1]}<methodResponse>${body.slice(bare[1].length)}</methodResponse>` : body;
}

export function decodeResponse(body: string): Promise<{ value?: unknown; fault?: SvcFault }> {
  return new Promise((resolve, reject) => {
    new Deserializer('utf8').deserializeMethodResponse(
      Readable.from([Buffer.from(asMethodResponse(body), 'utf8')]),
      (err, value) => {
        if (err && 'faultCode' in err && err.faultCode !== undefined) {
          resolve({ fault: new SvcFault(err.faultCode, String(err.faultString)) });
        } else if (err) reject(err);
        else resolve({ value });
      },
    );
  });
}

export function buildHeaders(
  service: string,
  options: CallOptions,
  auth: Auth,
): Record<string, unknown> {
  const headers: Record<string, unknown> = {};
  if (auth && 'apiKey' in auth)
    headers.authenticate = { username: auth.username, apiKey: auth.apiKey };
  if (auth && 'authToken' in auth) {
    headers.authenticate = {
      complexType: 'PortalLoginToken',
      userId: auth.userId,
      authToken: auth.authToken,
    };
  }
  Object.assign(headers, options.headers);
  const full = `Svc_${service}`;
  if (options.id !== undefined) headers[`${full}InitParameters`] = { id: options.id };
  if (options.mask !== undefined) {
    const key =
      options.maskKey ??
      (typeof options.mask === 'string' ? 'Svc_ObjectMask' : `${full}ObjectMask`);
    headers[key] = { mask: options.mask };
  }
  if (options.filter !== undefined) headers[`${full}ObjectFilter`] = options.filter;
  if (options.limit !== undefined)
    headers.resultLimit = { limit: options.limit, offset: options.offset ?? 0 };
  return headers;
}

export class EmulatorClient {
  constructor(
    readonly url: string,
    readonly auth: Auth = null,
  ) {}

  withAuth(auth: Auth): EmulatorClient {
    return new EmulatorClient(this.url, auth);
  }

  async post(
    service: string,
    body: string | Buffer,
    httpHeaders: Record<string, string> = {},
  ): Promise<RawResponse> {
    const res = await fetch(`${this.url}/Svc_${service}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml', ...httpHeaders },
      body,
    });
    const text = await res.text();
    const out: RawResponse = { status: res.status, headers: res.headers, body: text };
    const total = res.headers.get('svc-total-items');
    if (total !== null) out.totalItems = Number(total);
    if (res.status === 200 || text.includes('<methodResponse') || text.includes('<params>')) {
      try {
        Object.assign(out, await decodeResponse(text));
      } catch {
        // not XML-RPC: leave value/fault unset
      }
    }
    return out;
  }

  callRaw(service: string, method: string, options: CallOptions = {}): Promise<RawResponse> {
    const auth = options.auth === undefined ? this.auth : options.auth;
    const params = [{ headers: buildHeaders(service, options, auth) }, ...(options.args ?? [])];
    return this.post(service, encodeCall(method, params), options.httpHeaders);
  }

  /** The result, or a thrown SvcFault. */
  async call<T = unknown>(service: string, method: string, options: CallOptions = {}): Promise<T> {
    const res = await this.callRaw(service, method, options);
    if (res.fault) throw res.fault;
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${res.body.slice(0, 200)}`);
    return res.value as T;
  }
}

/** JSON helper for the admin API. */
export async function admin<T = unknown>(
  adminUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${adminUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const value = (await res.json()) as T;
  if (!res.ok)
    throw new Error(`admin ${method} ${path}: HTTP ${res.status} ${JSON.stringify(value)}`);
  return value;
}
