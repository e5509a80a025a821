import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A throwaway PostgreSQL cluster on loopback, for Pulumi's postgres:// state backend. */
export interface Postgres {
  /** The backend URL for PULUMI_BACKEND_URL. */
  url: string;
  /** Runs SQL through psql and returns its unaligned output. */
  sql(query: string): Promise<string>;
  /** The decoded content of every blob Pulumi's backend keeps (state, history, backups). */
  blobs(): Promise<string[]>;
  stop(): Promise<void>;
}

const USER = 'svc';

/** The folder with initdb and pg_ctl: Debian's postgresql package, installed when absent. */
function binDir(): string {
  const find = () =>
    fs
      .readdirSync('/usr/lib/postgresql', { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(`/usr/lib/postgresql/${d.name}/bin/initdb`))
      .map((d) => `/usr/lib/postgresql/${d.name}/bin`)
      .sort()
      .pop();
  let dir = fs.existsSync('/usr/lib/postgresql') ? find() : undefined;
  if (!dir) {
    execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore' });
    execFileSync('apt-get', ['install', '-y', '-q', 'postgresql'], { stdio: 'ignore' });
    dir = find();
  }
  if (!dir) throw new Error('PostgreSQL is not installed and apt-get could not install it');
  return dir;
}

/** initdb refuses to run as root: the server then runs as the `postgres` system user. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const [uid, gid] = ['-u', '-g'].map((flag) =>
    Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()),
  );
  return { uid, gid };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** initdb in a temp folder, a server on a free loopback port; `stop` removes everything. */
export async function startPostgres(): Promise<Postgres> {
  const bin = binDir();
  const user = serverUser();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
  if (user) fs.chownSync(root, user.uid, user.gid);
  const data = path.join(root, 'data');
  const as = { ...user, cwd: root };
  await run(path.join(bin, 'initdb'), ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8'], as);
  const port = await freePort();
  const pgCtl = (...args: string[]) => run(path.join(bin, 'pg_ctl'), ['-D', data, ...args], as);
  await pgCtl(
    '-w',
    '-l',
    path.join(root, 'server.log'),
    '-o',
    `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off`,
    'start',
  );
  const sql = async (query: string) => {
    const args = ['-h', '127.0.0.1', '-p', String(port), '-U', USER, '-At', '-c', query];
    return (await run(path.join(bin, 'psql'), [...args, 'postgres'])).stdout;
  };
  return {
    url: `postgres://${USER}@127.0.0.1:${port}/postgres?sslmode=disable`,
    sql,
    async blobs() {
      // The backend stores each file as {"data": "<base64>"} in the pulumi_state table.
      const rows = await sql("select data->>'data' from pulumi_state");
      return rows
        .split('\n')
        .filter(Boolean)
        .map((row) => Buffer.from(row, 'base64').toString('utf8'));
    },
    async stop() {
      await pgCtl('-m', 'immediate', 'stop').catch(() => undefined);
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
