import type { CallOptions } from '../options';
import type { RpcCall } from './call';

/**
 * Calls made with a client's own username + API key, kept to be sent again: building the
 * headers struct, encoding it (the body is kept on the call, see call.ts) and building the HTTP
 * headers cost a noticeable part of a small call's CPU, and most calls repeat (same method,
 * same mask). The client drops the whole set when its credentials change.
 */

/** Prepared calls kept per client; the cache is simply emptied when it reaches this size. */
const MAX_PREPARED_CALLS = 256;

export class PreparedCalls {
  private readonly calls = new Map<string, RpcCall>();

  /** `secrets`: the one array the prepared calls share (its redactor is compiled once). */
  constructor(readonly secrets: readonly string[]) {}

  get(key: string): RpcCall | undefined {
    return this.calls.get(key);
  }

  add(key: string, call: RpcCall): RpcCall {
    if (this.calls.size >= MAX_PREPARED_CALLS) this.calls.clear();
    this.calls.set(key, call);
    return call;
  }
}

/** A string as `<length>:<text>`, so keys made of several of them cannot run into each other. */
function field(text: string): string {
  return `${text.length}:${text}`;
}

/**
 * The key of a call whose wire form depends only on primitive options, or undefined (args,
 * filters, struct masks, extra headers and raw HTTP headers are built every time).
 */
export function preparedCallKey(
  service: string,
  method: string,
  o: CallOptions,
): string | undefined {
  if (o.args || o.filter || o.headers || o.rawHeaders || typeof o.mask === 'object') {
    return undefined;
  }
  const mask = o.mask === undefined ? '-' : field(o.mask);
  const id = o.id === undefined ? '-' : typeof o.id + field(String(o.id));
  return `${field(service)}${field(method)}${mask}${id}|${o.limit}|${o.offset}|${o.compress}`;
}
