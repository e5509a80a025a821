import { Client, type ClientOptions } from '../client';

/** Reads one stack config value by its full key (`svc:apiKey`); undefined when unset. */
export type ConfigReader = (key: string) => string | undefined;

/**
 * What the Pulumi processes of this package on one machine send at most per second together, for
 * one account (processes configured alike share one budget), unless `svc:maxCallsPerSecond` (or SVC_MAX_CALLS_PER_SECOND, or
 * `max_calls_per_second` in ~/.svc) says otherwise: four fifths of the API's account-wide limit of
 * 50, so every stack run at once fits below it with room for other tools of the account.
 */
export const DEFAULT_MAX_CALLS_PER_SECOND = 40;

/**
 * The one way from Pulumi stack config to a client, in the program (lookups) and in the provider
 * process alike: `svc:*` first, then the environment and the settings file, each bad value
 * reported under the name it was given by (`svc:timeout`, `SVC_TIMEOUT`, `timeout in ~/.svc`).
 */
export function clientFromConfig(
  read: ConfigReader,
  options: Pick<ClientOptions, 'retry'> = {},
): Client {
  const get = (key: string) => {
    const value = read(`svc:${key}`);
    return value === undefined || value.trim() === '' ? undefined : value;
  };
  return new Client({
    username: get('username'),
    apiKey: get('apiKey'),
    endpointUrl: get('endpointUrl'),
    timeout: get('timeout'),
    maxCallsPerSecond: get('maxCallsPerSecond'),
    argumentName: (key) => `stack config svc:${key}`,
    defaults: { maxCallsPerSecond: DEFAULT_MAX_CALLS_PER_SECOND },
    ...options,
  });
}
