import { inspect } from 'node:util';
import type { XmlRpcValue } from './codec';
import { defineHidden } from './hidden';

/**
 * Authentication handlers. Any object with `getHeaders()` works as `auth`: what it returns is
 * merged into the XML-RPC headers struct of every call (spec 5.5). `getHttpHeaders()` adds HTTP
 * headers; `secrets()` names the strings to scrub from errors and logs (without it, every string
 * the handler sends is treated as secret).
 *
 * The handlers mask their secrets in `inspect` and `JSON.stringify`.
 */
export interface Auth {
  getHeaders(): Record<string, XmlRpcValue>;
  getHttpHeaders?(): Record<string, string>;
  secrets?(): readonly string[];
}

const MASK = '****';

/** A username and an API key, the key hidden from enumeration, JSON and inspection. */
abstract class UsernameKeyAuth implements Auth {
  declare protected readonly apiKey: string;

  constructor(
    readonly username: string,
    apiKey: string,
  ) {
    defineHidden(this, 'apiKey', apiKey);
  }

  abstract getHeaders(): Record<string, XmlRpcValue>;

  secrets(): readonly string[] {
    return [this.apiKey];
  }

  toJSON(): object {
    return { type: this.constructor.name, username: this.username, apiKey: MASK };
  }

  [inspect.custom](): string {
    return `${this.constructor.name}(username=${JSON.stringify(this.username)})`;
  }
}

/** Username + API key in the `authenticate` header: the usual way in. */
export class ApiKeyAuth extends UsernameKeyAuth {
  getHeaders(): Record<string, XmlRpcValue> {
    return { authenticate: { username: this.username, apiKey: this.apiKey } };
  }
}

/** A portal login token, as returned by `Client.authenticateWithPassword`. */
export class TokenAuth implements Auth {
  declare private readonly tokenValue: string;

  constructor(
    readonly userId: number | bigint | string,
    authToken: string,
  ) {
    defineHidden(this, 'tokenValue', authToken);
  }

  /** The token hash, e.g. to keep it for a later session (it is a credential: store it as one). */
  get authToken(): string {
    return this.tokenValue;
  }

  getHeaders(): Record<string, XmlRpcValue> {
    return {
      authenticate: {
        complexType: 'PortalLoginToken',
        userId: this.userId,
        authToken: this.tokenValue,
      },
    };
  }

  secrets(): readonly string[] {
    return [this.tokenValue];
  }

  toJSON(): object {
    return { type: 'TokenAuth', userId: String(this.userId), authToken: MASK };
  }

  [inspect.custom](): string {
    return `TokenAuth(userId=${String(this.userId)})`;
  }
}

/** HTTP Basic authentication only (for servers or proxies that check the HTTP layer). */
export class BasicHttpAuth extends UsernameKeyAuth {
  getHeaders(): Record<string, XmlRpcValue> {
    return {};
  }

  getHttpHeaders(): Record<string, string> {
    return { authorization: `Basic ${this.encoded()}` };
  }

  override secrets(): readonly string[] {
    return [this.apiKey, this.encoded()];
  }

  private encoded(): string {
    return Buffer.from(`${this.username}:${this.apiKey}`).toString('base64');
  }
}

function stringLeaves(value: unknown, out: string[]): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) value.forEach((item) => stringLeaves(item, out));
  else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    Object.values(value).forEach((item) => stringLeaves(item, out));
  }
  return out;
}

/** The strings an auth handler wants kept out of messages. */
export function authSecrets(auth: Auth | undefined): readonly string[] {
  if (!auth) return [];
  if (auth.secrets) return auth.secrets();
  return stringLeaves([auth.getHeaders(), auth.getHttpHeaders?.() ?? {}], []);
}
