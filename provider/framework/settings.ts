import { API_PUBLIC_ENDPOINT } from '../client/endpoints';
import { CLIENT_SETTINGS, DEFAULT_TIMEOUT_SECONDS } from '../client/settings';

/**
 * The `svc:` settings of a stack, declared once: the client's (where each is read from besides
 * stack config is the client's own table, CLIENT_SETTINGS) and the provider's own. Both front
 * doors' Pulumi config, the plugin schema's config (with defaults and environment variables) and
 * the README's table are made from this table.
 */
export interface Setting {
  /** The key after `svc:`. */
  key: string;
  type: 'string' | 'number';
  /** The environment variable read when stack config does not set it. */
  env: string;
  /** The key in the settings file `~/.svc` (section `[svc]`), for the client's settings. */
  file?: string;
  default?: string | number;
  secret?: true;
  description: string;
}

/**
 * What the Pulumi processes of this package on one machine send at most per second together, for
 * one account: four fifths of the API's account-wide limit of 50, so every stack run at once fits
 * below it with room for other tools of the account.
 */
export const DEFAULT_MAX_CALLS_PER_SECOND = 40;
export const DEFAULT_OUTCOME_WINDOW_SECONDS = 300;

const TABLE = [
  {
    key: 'username',
    type: 'string',
    ...CLIENT_SETTINGS.username,
    description: 'API user name.',
  },
  {
    key: 'apiKey',
    type: 'string',
    secret: true,
    ...CLIENT_SETTINGS.apiKey,
    description: 'API key: `pulumi config set --secret svc:apiKey <key>`.',
  },
  {
    key: 'endpointUrl',
    type: 'string',
    default: API_PUBLIC_ENDPOINT,
    ...CLIENT_SETTINGS.endpointUrl,
    description: 'XML-RPC endpoint of the API (the demo points it at the emulator).',
  },
  {
    key: 'timeout',
    type: 'number',
    default: DEFAULT_TIMEOUT_SECONDS,
    ...CLIENT_SETTINGS.timeout,
    description: 'Request timeout, in seconds.',
  },
  {
    key: 'maxCallsPerSecond',
    type: 'number',
    default: DEFAULT_MAX_CALLS_PER_SECOND,
    ...CLIENT_SETTINGS.maxCallsPerSecond,
    description:
      "Calls per second sent at most for the account from this machine, by every Pulumi process of this package with the same setting together (below the API's account-wide limit of 50).",
  },
  {
    key: 'outcomeWindow',
    type: 'number',
    default: DEFAULT_OUTCOME_WINDOW_SECONDS,
    env: 'SVC_OUTCOME_WINDOW',
    description:
      'How long, in seconds, to look for the effect of a write whose answer was lost before failing (at most 10 s for writes that bill nothing).',
  },
] as const satisfies readonly Setting[];

export const SETTINGS: readonly Setting[] = TABLE;

/** A setting's key after `svc:`, from the table. */
export type SettingKey = (typeof TABLE)[number]['key'];

/** A setting's stack config key: `svc:apiKey`. */
export const configKey = (key: SettingKey) => `svc:${key}` as const;
