import * as http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface RawPostOptions {
  headers?: Record<string, string>;
  /** A keep-alive agent for load loops; fetch costs several ms per request on this machine class. */
  agent?: http.Agent;
  /** Fails the request when no full answer arrives in time. */
  timeoutMs?: number;
}

/** A bare HTTP POST to the emulator, bytes in and bytes out: no client, no XML-RPC library. */
export function rawPost(
  url: string,
  body: string | Buffer,
  options: RawPostOptions = {},
): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: options.agent,
        headers: { 'Content-Type': 'text/xml', ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    if (options.timeoutMs !== undefined) {
      const ms = options.timeoutMs;
      req.setTimeout(ms, () => req.destroy(new Error(`no answer within ${ms} ms`)));
    }
    req.on('error', reject);
    req.end(body);
  });
}
