import type { Client } from '../client';
import { numberSetting } from '../client/settings';
import { clientFromConfig } from './config-client';
import { protectSecrets, say } from './log';
import { DEFAULT_OUTCOME_WINDOW_SECONDS, configKey } from './settings';
import { gateWrite } from './write-gate';

/** The part of Pulumi's ConfigureRequest the runtime reads (stack config, namespaced keys). */
export interface ProviderConfig {
  get(key: string): string | undefined;
}

/** A manager of `provider/managers/`: made over a client, and kept for the connection's life. */
export type ManagerClass<M> = new (client: Client) => M;

/**
 * What a kind's operations call the API through: the provider process's one client, and each
 * manager a kind asks for (`c.use(DnsManager)`), made once so that what a manager keeps (a guest's
 * batched readiness polls, its tag lookups) is shared by every resource of the process.
 */
export interface Connection {
  client: Client;
  use<M>(manager: ManagerClass<M>): M;
}

function connectionOver(client: Client): Connection {
  const made = new Map<ManagerClass<unknown>, unknown>();
  return {
    client,
    use<M>(manager: ManagerClass<M>): M {
      if (!made.has(manager)) made.set(manager, new manager(client));
      return made.get(manager) as M;
    },
  };
}

let configured: ProviderConfig | undefined;
let connection: Connection | undefined;

/**
 * Called by the engine once per provider process with the whole stack config. Secrets arrive in
 * plain text here and stay in this process's memory; they are never written to outputs.
 */
export async function configure(req: { config: ProviderConfig }): Promise<void> {
  configured = req.config;
  connection = undefined;
  protectSecrets([req.config.get(configKey('apiKey'))]);
  outcomeWindowMs(); // a bad value fails here, before any resource's first call
}

const OUTCOME_WINDOW = configKey('outcomeWindow');

/**
 * How long to keep looking for the effect of a write whose outcome is unknown (a timeout, a reset,
 * a 5xx) before failing: `svc:outcomeWindow` or `SVC_OUTCOME_WINDOW`, in seconds (default 300);
 * a bad value is an error naming where it came from (checked when the provider is configured).
 */
export function outcomeWindowMs(): number {
  const seconds = numberSetting(
    'outcome window',
    'seconds',
    [
      { value: configured?.get(OUTCOME_WINDOW), source: `stack config ${OUTCOME_WINDOW}` },
      { value: process.env.SVC_OUTCOME_WINDOW, source: 'SVC_OUTCOME_WINDOW' },
    ],
    { zero: true },
  );
  return (seconds ?? DEFAULT_OUTCOME_WINDOW_SECONDS) * 1000;
}

/**
 * How long to look for the effect of a write that bills nothing (a DNS record or zone, an SSH key,
 * a ticket update, tags and names): the API makes such an object within the call itself, so what
 * a lost answer made shows as soon as the server has finished the call (a commit that outlived the
 * client's timeout included). A few seconds of looking, not the minutes a guest's order gets.
 */
const FREE_WRITE_WINDOW_MS = 10_000;

export function freeWriteWindowMs(): number {
  return Math.min(outcomeWindowMs(), FREE_WRITE_WINDOW_MS);
}

/**
 * One client per provider process, from stack config `svc:*`; what is unset falls back, inside
 * the client, to SVC_USERNAME / SVC_API_KEY / SVC_ENDPOINT_URL and then the settings file.
 */
export function connect(): Connection {
  if (!connection) {
    const client = clientFromConfig((key) => configured?.get(key), {
      retry: {
        onRetry: ({ service, method, attempt, error }) =>
          say(`retrying ${service}.${method} (attempt ${attempt + 1}) after: ${error.message}`),
      },
      writeGate: gateWrite,
    });
    protectSecrets([client.apiKey]);
    connection = connectionOver(client);
  }
  return connection;
}
