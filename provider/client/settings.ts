import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { API_PUBLIC_ENDPOINT } from './endpoints';
import { SvcError } from './errors';
import { parseIni } from './ini';

/**
 * Settings resolution. Each setting comes from the first source that gives a non-empty value:
 * explicit argument > environment (`SVC_USERNAME`, `SVC_API_KEY`, `SVC_ENDPOINT_URL`,
 * `SVC_TIMEOUT`, `SVC_MAX_CALLS_PER_SECOND`) > settings file (`~/.svc`, or `configFile` instead;
 * INI section `[svc]`, keys `username`, `api_key`, `endpoint_url`, `timeout`,
 * `max_calls_per_second`) > `defaults`. A missing `~/.svc` is fine; a missing `configFile` that
 * was asked for by name is an error. A bad value's error names the source it came from.
 */

export const DEFAULT_CONFIG_FILE = '~/.svc';
export const CONFIG_SECTION = 'svc';
/** Seconds. The reference client has no default (calls can hang forever); a deployment should not. */
export const DEFAULT_TIMEOUT_SECONDS = 120;

export interface SettingsInput {
  username?: string;
  apiKey?: string;
  endpointUrl?: string;
  /** Seconds. */
  timeout?: number | string;
  /**
   * Calls per second sent at most for this endpoint and username from this machine, every client
   * and process together (default: no limit).
   */
  maxCallsPerSecond?: number | string;
  configFile?: string;
  /** How errors name a value given as an argument (default: "the <key> argument"). */
  argumentName?: (key: Key) => string;
  /** Values used when no argument, environment variable or settings file sets them. */
  defaults?: { timeout?: number; maxCallsPerSecond?: number };
}

export interface Settings {
  username?: string;
  apiKey?: string;
  endpointUrl: string;
  /** Seconds, > 0. */
  timeout: number;
  /** > 0, or undefined for no limit. */
  maxCallsPerSecond?: number;
}

/** Where each client setting comes from besides an argument: its variable and settings-file key. */
export const CLIENT_SETTINGS = {
  username: { env: 'SVC_USERNAME', file: 'username' },
  apiKey: { env: 'SVC_API_KEY', file: 'api_key' },
  endpointUrl: { env: 'SVC_ENDPOINT_URL', file: 'endpoint_url' },
  timeout: { env: 'SVC_TIMEOUT', file: 'timeout' },
  maxCallsPerSecond: { env: 'SVC_MAX_CALLS_PER_SECOND', file: 'max_calls_per_second' },
} as const satisfies Record<keyof Settings, { env: string; file: string }>;

/** A client setting's name, from the table. */
type Key = keyof typeof CLIENT_SETTINGS;
interface Source {
  describe(key: Key): string;
  values: Partial<Record<Key, string | number | undefined>>;
}
const KEYS = Object.keys(CLIENT_SETTINGS) as Key[];

function expandHome(path: string, home: string): string {
  return path === '~' || path.startsWith('~/') ? join(home, path.slice(1)) : path;
}

function readSettingsFile(path: string, required: boolean): Source['values'] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (!required && (code === 'ENOENT' || code === 'ENOTDIR')) return {};
    throw new SvcError(`Cannot read settings file ${path}: ${code ?? (err as Error).message}`);
  }
  const section = parseIni(text, path).get(CONFIG_SECTION);
  if (!section) return {};
  return Object.fromEntries(KEYS.map((key) => [key, section.get(CLIENT_SETTINGS[key].file)]));
}

function present(value: string | number | undefined): value is string | number {
  return value !== undefined && value !== null && String(value).trim() !== '';
}

function parsePositive(what: string, unit: string, zero = false) {
  return (value: string | number, source: string): number => {
    const n = typeof value === 'number' ? value : Number(value.trim());
    if (!Number.isFinite(n) || n < 0 || (n === 0 && !zero)) {
      const expected = zero ? 'a number (0 or more)' : 'a positive number';
      throw new SvcError(`Bad ${what} from ${source}: expected ${expected} of ${unit}`);
    }
    return n;
  };
}

/**
 * A number setting that is not the client's own (the provider's, say), resolved the same way:
 * the first of `candidates` that is given, in order of precedence; a bad value is an error that
 * names where it came from, as for the client's settings.
 */
export function numberSetting(
  what: string,
  unit: string,
  candidates: { value: string | undefined; source: string }[],
  options: { zero?: boolean } = {},
): number | undefined {
  const found = candidates.find(({ value }) => present(value));
  return found && parsePositive(what, unit, options.zero)(found.value!, found.source);
}
const parseTimeout = parsePositive('timeout', 'seconds');
const parseRate = parsePositive('call rate', 'calls per second');

function parseEndpoint(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new SvcError(`Bad endpoint URL from ${source}: not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(
      `Bad endpoint URL from ${source}: expected http: or https:, got ${url.protocol}`,
    );
  }
  return value.trim();
}

export function resolveSettings(
  input: SettingsInput = {},
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): Settings {
  const file = expandHome(input.configFile ?? DEFAULT_CONFIG_FILE, home);
  const sources: Source[] = [
    { describe: input.argumentName ?? ((key) => `the ${key} argument`), values: input },
    {
      describe: (key) => CLIENT_SETTINGS[key].env,
      values: Object.fromEntries(KEYS.map((key) => [key, env[CLIENT_SETTINGS[key].env]])),
    },
    {
      describe: (key) => `${CLIENT_SETTINGS[key].file} in settings file ${file}`,
      values: readSettingsFile(file, input.configFile !== undefined),
    },
  ];
  const pick = (key: Key) => {
    for (const source of sources) {
      const value = source.values[key];
      if (present(value)) return { value, source: source.describe(key) };
    }
    return undefined;
  };
  const text = (key: Extract<Key, 'username' | 'apiKey'>) => {
    const found = pick(key);
    return found === undefined ? undefined : String(found.value).trim();
  };
  const endpoint = pick('endpointUrl');
  const timeout = pick('timeout');
  const rate = pick('maxCallsPerSecond');
  const settings: Settings = {
    username: text('username'),
    apiKey: text('apiKey'),
    endpointUrl: endpoint
      ? parseEndpoint(String(endpoint.value), endpoint.source)
      : API_PUBLIC_ENDPOINT,
    timeout: timeout
      ? parseTimeout(timeout.value, timeout.source)
      : (input.defaults?.timeout ?? DEFAULT_TIMEOUT_SECONDS),
  };
  const maxCallsPerSecond = rate
    ? parseRate(rate.value, rate.source)
    : input.defaults?.maxCallsPerSecond;
  return maxCallsPerSecond === undefined ? settings : { ...settings, maxCallsPerSecond };
}
