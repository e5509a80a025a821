import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

/**
 * The version the release build writes in (scripts/release/plugin-executable.ts): the bundled
 * plugin is one file inside an executable, with no package.json to read. Undefined elsewhere.
 */
declare const SVC_BUNDLED_VERSION: string | undefined;

/**
 * The package version from package.json, found by walking up from this file (the source tree and
 * the compiled `dist/` sit at different depths). Read at run time, not imported: importing the
 * JSON would make tsc copy a second package.json into `dist/`, which changes how Node resolves
 * `pulumi-svc/...` from inside it.
 */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  if (typeof SVC_BUNDLED_VERSION === 'string') return (cached = SVC_BUNDLED_VERSION);
  cached = '0.0.0';
  for (let dir = __dirname; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'pulumi-svc' && typeof pkg.version === 'string')
        return (cached = pkg.version);
    } catch {
      // no (readable) package.json at this level: keep walking up
    }
    if (dirname(dir) === dir) return cached;
  }
}

export function defaultUserAgent(): string {
  return `pulumi-svc/${packageVersion()}`;
}
