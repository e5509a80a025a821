/**
 * A Python virtual environment with one pinned package from PyPI, made once per machine under the
 * user's cache directory (`~/.cache/pulumi-svc/<name>`, or `$XDG_CACHE_HOME/pulumi-svc/<name>`)
 * and reused while it still holds that version. It is built in a temporary directory and renamed
 * into place, so concurrent runs never see a half-built one.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Venv {
  /** The environment's python interpreter. */
  python: string;
  dir: string;
}

/** `~/.cache/pulumi-svc/<name>` (or under `$XDG_CACHE_HOME`): what the suite builds once per machine. */
export function userCacheDir(name: string): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'pulumi-svc', name);
}

/** Where the environment lives; `SVC_INTEROP_VENV` overrides it. */
export function venvDir(name: string): string {
  return process.env.SVC_INTEROP_VENV || userCacheDir(name);
}

const pythonIn = (dir: string) =>
  process.platform === 'win32' ? join(dir, 'Scripts', 'python.exe') : join(dir, 'bin', 'python');

/** The system Python (`$PYTHON`, else python3), or an error that says what to install. */
export async function systemPython(): Promise<string> {
  const python = process.env.PYTHON || 'python3';
  try {
    const { stdout } = await run(python, [
      '-c',
      'import sys; print("%d.%d" % sys.version_info[:2])',
    ]);
    const [major, minor] = stdout.trim().split('.').map(Number);
    if (major !== 3 || minor < 8) {
      throw new Error(
        `${python} is Python ${stdout.trim()}; the interop suite needs Python 3.8 or later.`,
      );
    }
    return python;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `The interop suite needs Python 3.8 or later, and '${python}' is not on PATH. Install ` +
          'Python 3 with its venv module (e.g. apt-get install python3 python3-venv), or set ' +
          'PYTHON to an interpreter.',
      );
    }
    throw err;
  }
}

async function installedVersion(python: string, module: string): Promise<string | undefined> {
  if (!existsSync(python)) return undefined;
  try {
    const { stdout } = await run(python, [
      '-c',
      `import importlib.metadata as m; print(m.version(${JSON.stringify(module)}))`,
    ]);
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** The environment `name` with `pkg==version` installed from PyPI (made when missing). */
export async function ensureVenv(name: string, pkg: string, version: string): Promise<Venv> {
  const dir = venvDir(name);
  if ((await installedVersion(pythonIn(dir), pkg)) === version) {
    return { python: pythonIn(dir), dir };
  }
  const python = await systemPython();
  const building = `${dir}.building-${process.pid}`;
  await rm(building, { recursive: true, force: true });
  await mkdir(join(building, '..'), { recursive: true });
  try {
    try {
      await run(python, ['-m', 'venv', building], { timeout: 300_000 });
    } catch (err) {
      throw new Error(
        `Could not create a virtual environment with '${python} -m venv' (on Debian and Ubuntu ` +
          `install python3-venv): ${(err as Error).message}`,
      );
    }
    try {
      await run(
        pythonIn(building),
        ['-m', 'pip', 'install', '--disable-pip-version-check', '--quiet', `${pkg}==${version}`],
        { timeout: 600_000 },
      );
    } catch (err) {
      throw new Error(
        `Could not install ${pkg}==${version} from PyPI into ${building}: ${(err as Error).message}`,
      );
    }
    // Another run may have finished first: keep its environment (it may be in use).
    // Otherwise replace whatever stale one is there. Only bin/python is ever run, and it finds
    // its environment wherever the directory is (the entry-point scripts would not).
    if ((await installedVersion(pythonIn(dir), pkg)) !== version) {
      await rm(dir, { recursive: true, force: true });
      await rename(building, dir).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') throw err;
      });
    }
  } finally {
    await rm(building, { recursive: true, force: true });
  }
  if ((await installedVersion(pythonIn(dir), pkg)) !== version) {
    throw new Error(`${dir} does not hold ${pkg} ${version} after installing it.`);
  }
  return { python: pythonIn(dir), dir };
}

/** The environment for python: no proxies, no user config, `HOME` its own, plus `extra`. */
export function pythonEnv(home: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(https?_proxy|all_proxy|no_proxy|sl_.*|python.*)$/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, HOME: home, NO_PROXY: '*', PYTHONDONTWRITEBYTECODE: '1', ...extra };
}
