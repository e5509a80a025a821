import { inspect } from 'node:util';
import { ApiKeyAuth, TokenAuth, authSecrets, type Auth } from './auth';
import { serviceUrl } from './endpoints';
import { SvcError, Unauthenticated } from './errors';
import { defineHidden } from './hidden';
import { redact } from './redact';
import { validateCallOptions, type CallOptions, type IterCallOptions } from './options';
import { pageThrough } from './paging';
import { withTotalCount } from './result';
import { Service } from './service';
import { resolveSettings, type SettingsInput } from './settings';
import {
  PreparedCalls,
  buildApiHeaders,
  buildHttpHeaders,
  checkMaxResponseBytes,
  checkRetryOptions,
  composeTransport,
  isWrite,
  preparedCallKey,
  remoteServiceName,
  type RequestInfo,
  type ResponseInfo,
  type RetryOptions,
  type RpcCall,
  type RpcResult,
  type Transport,
} from './transport';
import { defaultUserAgent } from './version';

/** A write as the write gate sees it: which method, on which object. */
export interface GatedWrite {
  service: string;
  method: string;
  /** The object's id (`options.id`), if the call names one. */
  id?: unknown;
}

/**
 * What every write of a client passes through (`ClientOptions.writeGate`): it may refuse the write
 * (throw before `send`) or watch it (what `send` answers).
 */
export type WriteGate = (write: GatedWrite, send: () => Promise<unknown>) => Promise<unknown>;

export interface ClientOptions extends SettingsInput {
  /** An auth handler; wins over username/apiKey until those are assigned again. */
  auth?: Auth;
  /** Retry policy for transient failures (see transport/retry.ts); `false` turns retries off. */
  retry?: RetryOptions | false;
  /** Replaces `pulumi-svc/<version>`. */
  userAgent?: string;
  /**
   * Every write (a method that changes the account: `isWrite`) is sent through it; reads, paged
   * reads included, never are. The provider refuses writes of a cancelled operation with it.
   */
  writeGate?: WriteGate;
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
  'writeGate',
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

/** One call as the client's methods ask for it; `options` are already validated. */
interface CallRequest {
  /** The remote name, `Svc_Account`. */
  service: string;
  method: string;
  options: CallOptions;
  /** Sent without credentials (the login call). */
  anonymous?: boolean;
  /** More strings to redact from errors, e.g. a password passed as an argument. */
  secrets?: readonly (string | undefined)[];
}

const NO_ARGS: readonly unknown[] = [];

/** A list result carries the server's total; any other value is returned as it came. */
function resultValue(result: RpcResult): unknown {
  return Array.isArray(result.value)
    ? withTotalCount(result.value, result.totalItems)
    : result.value;
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
  declare private preparedCalls: PreparedCalls | undefined;
  /** See `ClientOptions.maxResponseBytes`. */
  readonly maxResponseBytes: number;
  /**
   * Calls per second sent at most for this endpoint and username from this machine, by this and
   * every other client and process of this package together (undefined: no limit).
   */
  readonly maxCallsPerSecond: number | undefined;
  /** Encode, retry, hooks, rate limit, HTTP and decode: what every call value is handed to. */
  private readonly transport: Transport;
  private readonly userAgent: string;
  private readonly services = new Map<string, Service>();
  private readonly writeGate: WriteGate | undefined;

  constructor(options: ClientOptions = {}) {
    checkClientOptions(options);
    const settings = resolveSettings(options);
    this.endpointUrl = settings.endpointUrl;
    this.timeout = settings.timeout;
    this.maxCallsPerSecond = settings.maxCallsPerSecond;
    defineHidden(this, 'usernameValue', settings.username);
    defineHidden(this, 'apiKeyValue', settings.apiKey);
    defineHidden(this, 'authValue', options.auth);
    defineHidden(this, 'keyAuth', undefined);
    defineHidden(this, 'preparedCalls', undefined);
    const retry = checkRetryOptions(options.retry);
    this.maxResponseBytes = checkMaxResponseBytes(options.maxResponseBytes);
    this.userAgent = options.userAgent ?? defaultUserAgent();
    this.writeGate = options.writeGate;
    this.transport = composeTransport({
      retry,
      maxCallsPerSecond: settings.maxCallsPerSecond,
      account: settings,
      onRequest: options.onRequest,
      onResponse: options.onResponse,
      // Log lines are redacted like errors: a mask, filter or argument may carry a credential.
      log: options.verbose
        ? (line) => console.log(redact(line, this.secretsFor(this.auth, undefined)))
        : undefined,
    });
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
    this.preparedCalls = undefined;
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
    if (this.writeGate && isWrite(method)) {
      const send = () => this.invoke(service, method, options);
      return this.writeGate({ service, method, id: options?.id }, send);
    }
    return this.invoke(service, method, options);
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
    const remote = remoteServiceName(service);
    const {
      chunk,
      limit,
      offset,
      iter: _iter,
      ...rest
    } = validateCallOptions(options, `${remote}::${method}`, true);
    // Validated once here: every page's options are these with a limit and an offset.
    return pageThrough<T>(
      (pageLimit, pageOffset) =>
        this.send({
          service: remote,
          method,
          options: { ...rest, limit: pageLimit, offset: pageOffset },
        }),
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
    const result = await this.send({
      ...LOGIN,
      options: { args },
      anonymous: true,
      secrets: [password, securityQuestionAnswer],
    });
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

  /** `call` without `iter`: options checked, and any error a rejection, never a throw. */
  private async invoke(service: string, method: string, raw: CallOptions | undefined) {
    const remote = remoteServiceName(service);
    const options = validateCallOptions(raw, `${remote}::${method}`, false);
    // `return await`: resolving the async result with a promise would cost two more ticks.
    return await this.send({ service: remote, method, options });
  }

  /** Builds the call value and hands it to the transport. */
  private send(request: CallRequest): Promise<unknown> {
    return this.transport(this.rpcCall(request)).then(resultValue);
  }

  /** The call value for a request: a prepared one for the client's own key when it repeats. */
  private rpcCall(request: CallRequest): RpcCall {
    const { service, method, options } = request;
    const auth = request.anonymous ? undefined : this.requireAuth(service, method);
    const key =
      auth !== undefined && auth === this.keyAuth && request.secrets === undefined
        ? preparedCallKey(service, method, options)
        : undefined;
    if (key === undefined)
      return this.newCall(request, auth, this.secretsFor(auth, request.secrets));
    const prepared = (this.preparedCalls ??= new PreparedCalls(this.secretsFor(auth, undefined)));
    return prepared.get(key) ?? prepared.add(key, this.newCall(request, auth, prepared.secrets));
  }

  /** What goes on the wire for a request, and what the hooks show of it. */
  private newCall(
    { service, method, options }: CallRequest,
    auth: Auth | undefined,
    secrets: readonly string[],
  ): RpcCall {
    const { id, mask, filter, limit, offset } = options;
    return {
      service,
      method,
      args: options.args ?? NO_ARGS,
      headers: buildApiHeaders(service, options, auth?.getHeaders()),
      httpHeaders: buildHttpHeaders(options, auth?.getHttpHeaders?.(), this.userAgent),
      url: serviceUrl(this.endpointUrl, service),
      timeoutMs: this.timeout * 1000,
      maxResponseBytes: this.maxResponseBytes,
      secrets,
      shown: { id, mask, filter, limit, offset },
      attempt: 1,
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
