import { inspect } from 'node:util';
import type { Auth } from '../auth';
import { Client } from '../client';
import { SvcError } from '../errors';
import { defineHidden } from '../hidden';
import {
  initParametersHeader,
  maskHeader,
  remoteServiceName,
  resultLimitHeader,
  type HeaderEntry,
  type RetryOptions,
} from '../transport';
import { isRemoteMethodName } from '../service';
import { deprecated } from './deprecation';

/**
 * The pre-3.0 interface (spec section 9), deprecated: a client bound to one service, whose mask,
 * init parameter, result limit and headers are set with methods and persist across calls, and
 * whose remote methods take the API's positional arguments directly (`legacy.getObject()`,
 * `legacy.createObject(template)`). It runs on the current `Client`: the persistent state is
 * sent as that call's per-call `headers` / `rawHeaders`. Each deprecated method warns once per
 * process with a `DeprecationWarning` saying what replaces it.
 */

export interface LegacyClientOptions {
  /** `Account` or `Svc_Account`. */
  serviceName: string;
  /** Init parameter sent with every call, as `setInitParameter` does. */
  id?: number | bigint | string | null;
  username?: string;
  apiKey?: string;
  endpointUrl?: string;
  /** Seconds. */
  timeout?: number;
  auth?: Auth;
  /** Print each request and response to standard output. */
  verbose?: boolean;
  configFile?: string;
  retry?: RetryOptions | false;
}

type Id = number | bigint | string;

/** A remote method of the bound service, called with the API's positional arguments. */
export type LegacyRemoteMethod = <T = unknown>(...args: unknown[]) => Promise<T>;

export class LegacyClientBase {
  /** The remote service name (`Svc_Account`). */
  readonly serviceName: string;
  declare private readonly client: Client;
  private readonly headers: Record<string, unknown> = {};
  private readonly rawHeaders: Record<string, string> = {};

  constructor(
    serviceOrOptions: string | LegacyClientOptions,
    id?: Id | null,
    username?: string,
    apiKey?: string,
    endpointUrl?: string,
    timeout?: number,
  ) {
    deprecated(
      'SVC_DEP_LEGACY_CLIENT',
      'The service-bound LegacyClient is deprecated: use new Client({ username, apiKey }) and client.Account.getObject({ mask, id, limit, offset, headers })',
    );
    const options: LegacyClientOptions =
      typeof serviceOrOptions === 'string'
        ? { serviceName: serviceOrOptions, id, username, apiKey, endpointUrl, timeout }
        : serviceOrOptions;
    if (typeof options.serviceName !== 'string' || options.serviceName.trim() === '') {
      throw new SvcError('Please specify a service name.');
    }
    const { serviceName, id: initId, ...clientOptions } = options;
    this.serviceName = remoteServiceName(serviceName.trim());
    defineHidden(this, 'client', new Client(clientOptions));
    if (initId !== undefined && initId !== null)
      this.put(initParametersHeader(this.serviceName, initId));
    return new Proxy(this, LEGACY_HANDLER);
  }

  /** @deprecated pass `mask` on each call. */
  setObjectMask(mask: string | Record<string, unknown>): void {
    deprecated(
      'SVC_DEP_SET_OBJECT_MASK',
      'setObjectMask() is deprecated: pass { mask } on each call',
    );
    this.put(maskHeader(this.serviceName, mask));
  }

  /** @deprecated pass `id` on each call. */
  setInitParameter(id: Id): void {
    deprecated(
      'SVC_DEP_SET_INIT_PARAMETER',
      'setInitParameter() is deprecated: pass { id } on each call',
    );
    this.put(initParametersHeader(this.serviceName, id));
  }

  /** @deprecated pass `limit` and `offset` on each call. */
  setResultLimit(limit: number, offset = 0): void {
    deprecated(
      'SVC_DEP_SET_RESULT_LIMIT',
      'setResultLimit() is deprecated: pass { limit, offset } on each call',
    );
    if (!Number.isSafeInteger(limit) || limit < 1 || !Number.isSafeInteger(offset) || offset < 0) {
      throw new RangeError(
        `setResultLimit: limit must be an integer >= 1 and offset >= 0, got ${limit}, ${offset}`,
      );
    }
    this.put(resultLimitHeader(limit, offset));
  }

  /** @deprecated pass `headers` on each call (they are not kept). */
  addHeader(name: string, value: unknown): void {
    deprecated(
      'SVC_DEP_ADD_HEADER',
      'addHeader() is deprecated: pass { headers: { name: value } } on each call',
    );
    const key = typeof name === 'string' ? name.trim() : '';
    if (key === '') throw new SvcError('Please specify a header name.');
    this.put([key, value]);
  }

  /** @deprecated omit the header from `headers`. */
  removeHeader(name: string): void {
    deprecated(
      'SVC_DEP_REMOVE_HEADER',
      'removeHeader() is deprecated: just leave the header out of { headers }',
    );
    delete this.headers[String(name).trim()];
  }

  /** @deprecated pass `rawHeaders` on each call. */
  addRawHeader(name: string, value: string): void {
    deprecated(
      'SVC_DEP_ADD_RAW_HEADER',
      'addRawHeader() is deprecated: pass { rawHeaders: { name: value } } on each call',
    );
    this.rawHeaders[name] = value;
  }

  /** @deprecated assign `client.username` and `client.apiKey`. */
  setAuthentication(username: string, apiKey: string): void {
    deprecated(
      'SVC_DEP_SET_AUTHENTICATION',
      'setAuthentication() is deprecated: assign client.username and client.apiKey',
    );
    this.client.username = username.trim();
    this.client.apiKey = apiKey.trim();
  }

  toJSON(): object {
    return { serviceName: this.serviceName, client: this.client.toJSON() };
  }

  [inspect.custom](): string {
    const key = `${this.serviceName}InitParameters`;
    const id = (this.headers[key] as { id?: unknown } | undefined)?.id;
    return id === undefined
      ? `<'${this.serviceName}' Instance>`
      : `<'${this.serviceName}' Instance [ID: ${String(id)}]>`;
  }

  private put([key, value]: HeaderEntry): void {
    this.headers[key] = value;
  }

  private remoteCall(method: string, args: unknown[]): Promise<unknown> {
    return this.client.call(this.serviceName, method, {
      args,
      headers: { ...this.headers },
      rawHeaders: { ...this.rawHeaders },
    });
  }
}

const LEGACY_HANDLER: ProxyHandler<LegacyClientBase> = {
  get(target, prop, receiver) {
    if (typeof prop === 'symbol' || prop in target) return Reflect.get(target, prop, receiver);
    if (!isRemoteMethodName(prop)) return undefined;
    return (...args: unknown[]) => target['remoteCall'](prop, args); // private: only the proxy uses it
  },
};

export interface LegacyClientConstructor {
  new (options: LegacyClientOptions): LegacyClient;
  new (
    serviceName: string,
    id?: Id | null,
    username?: string,
    apiKey?: string,
    endpointUrl?: string,
    timeout?: number,
  ): LegacyClient;
}

/** A service-bound legacy client; every other lower-case property is a remote method. */
export type LegacyClient = LegacyClientBase & { readonly [method: string]: LegacyRemoteMethod };
export const LegacyClient = LegacyClientBase as unknown as LegacyClientConstructor;
