import * as fs from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';

export interface StaticFiles {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** The paths asked for, in order, with the status each got. */
  requests: { path: string; status: number }[];
  close(): Promise<void>;
}

/**
 * Serves the files under `root` on a loopback port, as release hosting serves a release's assets:
 * GET of a file's path answers its bytes, anything else 404.
 */
export async function serveStaticFiles(root: string): Promise<StaticFiles> {
  const requests: StaticFiles['requests'] = [];
  const server = createServer((req, res) => {
    const wanted = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = path.join(root, path.normalize(wanted));
    const found =
      req.method === 'GET' &&
      file.startsWith(root + path.sep) &&
      fs.statSync(file, { throwIfNoEntry: false })?.isFile();
    requests.push({ path: wanted, status: found ? 200 : 404 });
    if (!found) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': fs.statSync(file).size });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
