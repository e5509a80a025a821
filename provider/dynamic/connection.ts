import type { Client } from '../client';
import { AccountManager, DnsManager, TicketManager, VirtualGuestManager } from '../managers';
import { clientFromConfig } from './config-client';
import { protectSecrets, say } from './log';

/** The part of Pulumi's ConfigureRequest the runtime reads (stack config, namespaced keys). */
export interface ProviderConfig {
  get(key: string): string | undefined;
}

export interface Connection {
  client: Client;
  guests: VirtualGuestManager;
  dns: DnsManager;
  tickets: TicketManager;
  account: AccountManager;
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
  protectSecrets([req.config.get('svc:apiKey')]);
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
    });
    protectSecrets([client.apiKey]);
    connection = {
      client,
      guests: new VirtualGuestManager(client),
      dns: new DnsManager(client),
      tickets: new TicketManager(client),
      account: new AccountManager(client),
    };
  }
  return connection;
}
