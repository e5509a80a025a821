import { inspect } from 'node:util';
import { ApiKeyAuth, TokenAuth, authSecrets, type Auth } from './auth';
import { checkMaxResponseBytes } from './body-limit';
import { encodeMethodCall } from './codec';
import {
  describeRequest,
  describeResponse,
  requestInfo,
  type RequestInfo,
  type ResponseInfo,
} from './debug';
import { serviceUrl } from './endpoints';
import { SvcError, TransportError, Unauthenticated } from './errors';
import { defineHidden } from './hidden';
import { redact } from './redact';
import { validateCallOptions, type CallOptions, type IterCallOptions } from './options';
import { pageThrough } from './paging';
import { buildApiHeaders, buildHttpHeaders, remoteServiceName } from './request';
import { withTotalCount } from './result';
import { checkRetryOptions, withRetry, type RetryOptions } from './retry';
import { Service } from './service';
import { resolveSettings, type SettingsInput } from './settings';
import { rateLimited } from './rate-limit';
import { postXmlRpc, type HttpCall, type HttpResult } from './transport';
import { defaultUserAgent } from './version';

export interface ClientOptions extends SettingsInput {
  /** An auth handler; wins over username/apiKey until those are assigned again. */
  auth?: Auth;
  /** Retry policy for transient failures (see retry.ts); `false` turns retries off. */
  retry?: RetryOptions | false;
  /** Replaces `pulumi-svc/<version>`. */
  userAgent?: string;
  /** Called before each HTTP attempt (never sees credentials). */
  onRequest?: (info: RequestInfo) => void;
  /** Called after each HTTP attempt, with its status, duration and error if any. */
  onResponse?: (info: ResponseInfo) => void;
  /** Print one line per request and per response to standard output. */
  verbose?: boolean;
  /**
   * The most bytes of a response read off the wire, and the most its gzip/deflate body may
   * inflate to (default 64 MiB); a bigger answer is a `ResponseTooLarge` error.
   */
  maxResponseBytes?: number;
}

/** The one method callable without credentials: it is how a token is obtained. */
const LOGIN = { service: 'Svc_User_Customer', method: 'getPortalLoginToken' };
const SERVICE_NAME = /^[A-Z]/;
const CLIENT_OPTIONS = new Set([
  'username',
  'apiKey',
  'endpointUrl',
  'timeout',
  'configFile',
  'auth',
  'retry',
  'userAgent',
  'onRequest',
  'onResponse',
  'verbose',
  'maxResponseBytes',
  'maxCallsPerSecond',
  'argumentName',
  'defaults',
]);

/** A misspelt option (`api_key`, `endpoint`) would otherwise surface much later as Unauthenticated. */
function checkClientOptions(options: ClientOptions): void {
  const unknown = Object.keys(options).filter((key) => !CLIENT_OPTIONS.has(key));
  if (unknown.length > 0) {
    throw new TypeError(
      `Client: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `'${k}'`).join(', ')}` +
        ` (valid: ${[...CLIENT_OPTIONS].join(', ')})`,
    );
  }
}

interface InvokeExtras {
  anonymous?: boolean;
  secrets?: readonly (string | undefined)[];
}

/** Prepared calls kept per client; the cache is simply emptied when it reaches this size. */
const MAX_PREPARED_CALLS = 256;

/**
 * What the calls made with the client's own username + API key share: their secrets, and each
 * distinct call's prepared HttpCall. Building the headers struct, encoding it and building the
 * HTTP headers cost a noticeable part of a small call's CPU, and most calls repeat (same
 * method, same mask). Dropped whenever the credentials change.
 */
interface KeyAuthCalls {
  secrets: readonly string[];
  prepared: Map<string, HttpCall>;
}

/** A string as `<length>:<text>`, so keys made of several of them cannot run into each other. */
function field(text: string): string {
  return `${text.length}:${text}`;
}

/**
 * The cache key of a call whose wire form depends only on primitive options, or undefined
 * (args, filters, struct masks, extra headers and raw HTTP headers are built every time).
 */
function preparedCallKey(remote: string, method: string, o: CallOptions): string | undefined {
  if (o.args || o.filter || o.headers || o.rawHeaders || typeof o.mask === 'object') {
    return undefined;
  }
  const mask = o.mask === undefined ? '-' : field(o.mask);
  const id = o.id === undefined ? '-' : typeof o.id + field(String(o.id));
  return `${field(remote)}${field(method)}${mask}${id}|${o.limit}|${o.offset}|${o.compress}`;
}

/**
 * The Svc API client. Settings come from the options, then `SVC_*` environment variables, then
 * the settings file (see settings.ts). Services are reached as `client.Account`,
 * `client['Virtual_Guest']` or `client.service('Account')` (the same cached object); only names
 * starting with an upper-case letter are treated as services by the property form.
 *
 * The API key is kept out of `inspect`, `JSON.stringify`, enumeration and every error message.
 */
export class ClientBase {
  readonly endpointUrl: string;
  /** Seconds, for each HTTP attempt (connect, headers, body and overall). */
  readonly timeout: number;
  declare private usernameValue: string | undefined;
  declare private apiKeyValue: string | undefined;
  declare private authValue: Auth | undefined;
  /** The ApiKeyAuth for the current username and key, made once rather than per call. */
  declare private keyAuth: ApiKeyAuth | undefined;
  /** Prepared calls for `keyAuth` (they hold the API key, hence hidden like it). */
  declare private keyAuthCalls: KeyAuthCalls | undefined;
  /** See `ClientOptions.maxResponseBytes`. */
  readonly maxResponseBytes: number;
  /**
   * Calls per second sent at most for this endpoint and username from this machine, by this and
   * every other client and process of this package together (undefined: no limit).
   */
  readonly maxCallsPerSecond: number | undefined;
  /** One HTTP attempt, through the client's rate limit when it has one. */
  private readonly send: (call: HttpCall) => Promise<HttpResult>;
  private readonly retry: RetryOptions;
  private readonly userAgent: string;
  private readonly onRequest?: (info: RequestInfo) => void;
  private readonly onResponse?: (info: ResponseInfo) => void;
  private readonly services = new Map<string, Service>();

  constructor(options: ClientOptions = {}) {
    checkClientOptions(options);
    const settings = resolveSettings(options);
    this.endpointUrl = settings.endpointUrl;
    this.timeout = settings.timeout;
    this.maxCallsPerSecond = settings.maxCallsPerSecond;
    this.send = rateLimited(postXmlRpc, settings.maxCallsPerSecond, settings);
    defineHidden(this, 'usernameValue', settings.username);
    defineHidden(this, 'apiKeyValue', settings.apiKey);
    defineHidden(this, 'authValue', options.auth);
    defineHidden(this, 'keyAuth', undefined);
    defineHidden(this, 'keyAuthCalls', undefined);
    this.retry = checkRetryOptions(options.retry);
    this.maxResponseBytes = checkMaxResponseBytes(options.maxResponseBytes);
    this.userAgent = options.userAgent ?? defaultUserAgent();
    // Log lines are redacted like errors: a mask, filter or argument may carry a credential.
    const log = options.verbose
      ? (line: string) => console.log(redact(line, this.secretsFor(this.auth, undefined)))
      : undefined;
    if (options.onRequest || log) {
      this.onRequest = (info) => {
        log?.(`-> ${describeRequest(info)}`);
        options.onRequest?.(info);
      };
    }
    if (options.onResponse || log) {
      this.onResponse = (info) => {
        log?.(`<- ${describeResponse(info)}`);
        options.onResponse?.(info);
      };
    }
    return new Proxy(this, CLIENT_HANDLER);
  }

  get username(): string | undefined {
    return this.usernameValue;
  }

  /** Takes effect on the next call; also drops an `auth` handler so the new credentials are used. */
  set username(value: string | undefined) {
    this.usernameValue = value;
    this.authValue = undefined;
    this.dropKeyAuth();
  }

  get apiKey(): string | undefined {
    return this.apiKeyValue;
  }

  /** Takes effect on the next call; also drops an `auth` handler so the new credentials are used. */
  set apiKey(value: string | undefined) {
    this.apiKeyValue = value;
    this.authValue = undefined;
    this.dropKeyAuth();
  }

  /** The handler the next call authenticates with: the `auth` given, else username + API key. */
  get auth(): Auth | undefined {
    if (this.authValue) return this.authValue;
    if (!this.usernameValue || !this.apiKeyValue) return undefined;
    this.keyAuth ??= new ApiKeyAuth(this.usernameValue, this.apiKeyValue);
    return this.keyAuth;
  }

  set auth(value: Auth | undefined) {
    this.authValue = value;
  }

  private dropKeyAuth(): void {
    this.keyAuth = undefined;
    this.keyAuthCalls = undefined;
  }

  /** The service object for a name, with or without the `Svc_` prefix; one per name. */
  service(name: string): Service {
    const remote = remoteServiceName(name);
    let service = this.services.get(remote);
    if (!service) {
      service = new Service(this, remote);
      this.services.set(remote, service);
    }
    return service;
  }

  call<T = unknown>(
    service: string,
    method: string,
    options: CallOptions & { iter: true },
  ): AsyncIterableIterator<T>;
  call<T = unknown>(service: string, method: string, options?: CallOptions): Promise<T>;
  call(
    service: string,
    method: string,
    options?: CallOptions,
  ): Promise<unknown> | AsyncIterableIterator<unknown> {
    if (options?.iter === true) {
      const { iter: _iter, ...rest } = options;
      return this.iterCall(service, method, rest);
    }
    return this.invoke(service, method, options, {});
  }

  /**
   * Pages through a list method: `chunk` results per request (default 100), at most `limit` in
   * total, from `offset`. Validation errors are thrown here; request errors from the iterator.
   */
  iterCall<T = unknown>(
    service: string,
    method: string,
    options?: IterCallOptions,
  ): AsyncIterableIterator<T> {
    const where = `${remoteServiceName(service)}::${method}`;
    const {
      chunk,
      limit,
      offset,
      iter: _iter,
      ...rest
    } = validateCallOptions(options, where, true);
    return pageThrough<T>(
      (pageLimit, pageOffset) =>
        this.invoke(service, method, { ...rest, limit: pageLimit, offset: pageOffset }, {}),
      { chunk, limit, offset },
    );
  }

  /**
   * Exchanges a password for a portal login token (`User_Customer::getPortalLoginToken`, sent
   * without credentials) and returns it as a `TokenAuth` to pass as `auth` to a new Client.
   * This client's own credentials are left as they were: silently switching a client that other
   * code shares (and losing its credentials when the login fails, as the reference client does)
   * would be a surprise.
   */
  async authenticateWithPassword(
    username: string,
    password: string,
    securityQuestionId?: number,
    securityQuestionAnswer?: string,
  ): Promise<TokenAuth> {
    const args = [username, password, securityQuestionId ?? null, securityQuestionAnswer ?? null];
    const result = await this.invoke(
      LOGIN.service,
      LOGIN.method,
      { args },
      { anonymous: true, secrets: [password, securityQuestionAnswer] },
    );
    const token = result as { userId?: unknown; hash?: unknown } | null;
    const userId = token?.userId;
    if (
      typeof token?.hash !== 'string' ||
      !(typeof userId === 'number' || typeof userId === 'bigint' || typeof userId === 'string')
    ) {
      throw new SvcError('User_Customer::getPortalLoginToken answered without a userId and hash');
    }
    return new TokenAuth(userId, token.hash);
  }

  toJSON(): object {
    return {
      endpointUrl: this.endpointUrl,
      timeout: this.timeout,
      username: this.usernameValue,
      apiKey: this.apiKeyValue === undefined ? undefined : '****',
      auth: this.authValue?.constructor.name,
    };
  }

  [inspect.custom](_depth: number, options: object): string {
    return `Client ${inspect(this.toJSON(), options)}`;
  }

  private requireAuth(remote: string, method: string): Auth | undefined {
    const auth = this.auth;
    if (auth || (remote === LOGIN.service && method === LOGIN.method)) return auth;
    const missing = this.usernameValue ? 'apiKey' : this.apiKeyValue ? 'username' : 'credentials';
    throw new Unauthenticated(
      `Not authenticated (${missing} missing) for ${remote}::${method}: set username and apiKey ` +
        '(or SVC_USERNAME and SVC_API_KEY, or the settings file), or pass auth',
    );
  }

  private async invoke(
    service: string,
    method: string,
    raw: CallOptions | undefined,
    extras: InvokeExtras,
  ) {
    const remote = remoteServiceName(service);
    const options = validateCallOptions(raw, `${remote}::${method}`, false);
    const auth = extras.anonymous ? undefined : this.requireAuth(remote, method);
    const key =
      auth !== undefined && auth === this.keyAuth && extras.secrets === undefined
        ? preparedCallKey(remote, method, options)
        : undefined;
    const call =
      key === undefined
        ? this.buildCall(remote, method, options, auth, extras)
        : this.preparedCall(key, remote, method, options, auth as ApiKeyAuth);
    const result = await withRetry(
      (attempt) => this.attempt(call, remote, method, attempt, options),
      { service: remote, method },
      this.retry,
    );
    return Array.isArray(result.value)
      ? withTotalCount(result.value, result.totalItems)
      : result.value;
  }

  /** The wire form of a call: the headers struct and arguments encoded, the HTTP headers. */
  private buildCall(
    remote: string,
    method: string,
    options: CallOptions,
    auth: Auth | undefined,
    extras: InvokeExtras,
  ): HttpCall {
    const headers = buildApiHeaders(remote, options, auth?.getHeaders());
    return {
      url: serviceUrl(this.endpointUrl, remote),
      body: encodeMethodCall(method, [{ headers }, ...(options.args ?? [])]),
      headers: buildHttpHeaders(options, auth?.getHttpHeaders?.(), this.userAgent),
      timeoutMs: this.timeout * 1000,
      maxResponseBytes: this.maxResponseBytes,
      secrets: this.secretsFor(auth, extras.secrets),
    };
  }

  private secretsFor(
    auth: Auth | undefined,
    extra: readonly (string | undefined)[] | undefined,
  ): string[] {
    return [...authSecrets(auth), ...(extra ?? []), this.apiKeyValue].filter(
      (s): s is string => typeof s === 'string',
    );
  }

  /** `buildCall` made once per key for the client's own ApiKeyAuth (calls never change it). */
  private preparedCall(
    key: string,
    remote: string,
    method: string,
    options: CallOptions,
    auth: ApiKeyAuth,
  ): HttpCall {
    const cache = (this.keyAuthCalls ??= {
      secrets: this.secretsFor(auth, undefined),
      prepared: new Map(),
    });
    let call = cache.prepared.get(key);
    if (!call) {
      call = { ...this.buildCall(remote, method, options, auth, {}), secrets: cache.secrets };
      if (cache.prepared.size >= MAX_PREPARED_CALLS) cache.prepared.clear();
      cache.prepared.set(key, call);
    }
    return call;
  }

  /** One HTTP attempt; not async itself so the common case adds no promise of its own. */
  private attempt(
    call: HttpCall,
    service: string,
    method: string,
    attempt: number,
    options: CallOptions,
  ): Promise<HttpResult> {
    if (!this.onRequest && !this.onResponse) return this.send(call);
    return this.reportedAttempt(call, service, method, attempt, options);
  }

  /** An attempt reported to the hooks. */
  private async reportedAttempt(
    call: HttpCall,
    service: string,
    method: string,
    attempt: number,
    options: CallOptions,
  ): Promise<HttpResult> {
    this.onRequest?.(requestInfo(service, method, call.url, attempt, options));
    const started = performance.now();
    const report = (status: number | undefined, totalItems?: number, error?: Error) =>
      this.onResponse?.({
        service,
        method,
        attempt,
        status,
        durationMs: performance.now() - started,
        totalItems,
        error,
      });
    try {
      const result = await this.send(call);
      report(result.status, result.totalItems);
      return result;
    } catch (err) {
      const status = err instanceof TransportError ? Number(err.faultCode) || undefined : undefined;
      report(status, undefined, err instanceof Error ? err : new Error(String(err)));
      throw err;
    }
  }
}

const CLIENT_HANDLER: ProxyHandler<ClientBase> = {
  get(target, prop, receiver) {
    if (typeof prop === 'string' && SERVICE_NAME.test(prop) && !(prop in target)) {
      return target.service(prop);
    }
    return Reflect.get(target, prop, receiver);
  },
};

/** A client; upper-case property names are services (`client.Account`), all others its own. */
export type Client = ClientBase & { readonly [service: Capitalize<string>]: Service };
export const Client = ClientBase as unknown as new (options?: ClientOptions) => Client;
