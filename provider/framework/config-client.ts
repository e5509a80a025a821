import { Client, type ClientOptions } from '../client';
import { DEFAULT_MAX_CALLS_PER_SECOND, configKey, type SettingKey } from './settings';

/** Reads one stack config value by its full key (`svc:apiKey`); undefined when unset. */
export type ConfigReader = (key: string) => string | undefined;

/**
 * The one way from Pulumi stack config to a client, in the program (lookups) and in the provider
 * process alike: `svc:*` first, then the environment and the settings file, each bad value
 * reported under the name it was given by (`svc:timeout`, `SVC_TIMEOUT`, `timeout in ~/.svc`).
 */
export function clientFromConfig(
  read: ConfigReader,
  options: Pick<ClientOptions, 'retry' | 'writeGate'> = {},
): Client {
  const get = (key: SettingKey) => {
    const value = read(configKey(key));
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  return new Client({
    username: get('username'),
    apiKey: get('apiKey'),
    endpointUrl: get('endpointUrl'),
    timeout: get('timeout'),
    maxCallsPerSecond: get('maxCallsPerSecond'),
    argumentName: (key) => `stack config ${configKey(key)}`,
    defaults: { maxCallsPerSecond: DEFAULT_MAX_CALLS_PER_SECOND },
    ...options,
  });
}
