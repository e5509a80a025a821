import { inspect } from 'node:util';
import { defineHidden } from './hidden';
import type { CallOptions, IterCallOptions } from './options';
import { remoteServiceName } from './transport';

/**
 * A service of the API, bound to a client: `service.getObject(options)` (any method name works),
 * `service.call(method, options)`, `service.iterCall(method, options)`. Remote methods are
 * looked up through a Proxy, but only for names that look like API methods (lower-case first
 * letter, no `then`, `inspect`, `toJSON`, ...): `await service`, `util.inspect(service)` and
 * introspection never fire a request.
 */

/** A remote method: resolves with the result, or with `iter: true` returns an async iterator. */
export interface RemoteMethod {
  <T = unknown>(options: CallOptions & { iter: true }): AsyncIterableIterator<T>;
  <T = unknown>(options?: CallOptions): Promise<T>;
}

/** What a service needs from its client. */
export interface ServiceCaller {
  call(
    service: string,
    method: string,
    options?: CallOptions,
  ): Promise<unknown> | AsyncIterableIterator<unknown>;
  iterCall(
    service: string,
    method: string,
    options?: IterCallOptions,
  ): AsyncIterableIterator<unknown>;
}

/** Property names that callers probe for and that must never become remote calls. */
const NOT_REMOTE = new Set([
  'then',
  'catch',
  'finally',
  'inspect',
  'toJSON',
  'asymmetricMatch',
  'nodeType',
]);
const METHOD_NAME = /^[a-z][A-Za-z0-9_]*$/;

/** Whether a property read on a service proxy names a remote method (and not a probe like `then`). */
export function isRemoteMethodName(prop: string): boolean {
  return !NOT_REMOTE.has(prop) && METHOD_NAME.test(prop);
}

export class ServiceBase {
  /** The remote name, with the `Svc_` prefix (`Svc_Account`). */
  readonly name: string;
  declare private readonly caller: ServiceCaller;
  declare private readonly methods: Map<string, RemoteMethod>;

  constructor(client: ServiceCaller, name: string) {
    this.name = remoteServiceName(name);
    defineHidden(this, 'caller', client);
    defineHidden(this, 'methods', new Map());
    return new Proxy(this, SERVICE_HANDLER);
  }

  call<T = unknown>(
    method: string,
    options: CallOptions & { iter: true },
  ): AsyncIterableIterator<T>;
  call<T = unknown>(method: string, options?: CallOptions): Promise<T>;
  call(method: string, options?: CallOptions): Promise<unknown> | AsyncIterableIterator<unknown> {
    return this.caller.call(this.name, method, options);
  }

  iterCall<T = unknown>(method: string, options?: IterCallOptions): AsyncIterableIterator<T> {
    return this.caller.iterCall(this.name, method, options) as AsyncIterableIterator<T>;
  }

  /** The function behind `service.<method>`, made once per name. */
  private remoteMethod(method: string): RemoteMethod {
    let fn = this.methods.get(method);
    if (!fn) {
      fn = ((options?: CallOptions) => this.call(method, options)) as RemoteMethod;
      Object.defineProperty(fn, 'name', { value: method });
      this.methods.set(method, fn);
    }
    return fn;
  }

  toString(): string {
    return `Service(${this.name})`;
  }

  toJSON(): object {
    return { service: this.name };
  }

  [inspect.custom](): string {
    return this.toString();
  }
}

const SERVICE_HANDLER: ProxyHandler<ServiceBase> = {
  get(target, prop, receiver) {
    if (typeof prop === 'symbol' || prop in target) return Reflect.get(target, prop, receiver);
    if (!isRemoteMethodName(prop)) return undefined;
    return target['remoteMethod'](prop); // private: only the proxy uses it
  },
};

/** A service object; every lower-case property is a remote method (`service.getObject(...)`). */
export type Service = ServiceBase & { readonly [method: string]: RemoteMethod };
export const Service = ServiceBase as unknown as new (
  client: ServiceCaller,
  name: string,
) => Service;
