import * as pulumi from '@pulumi/pulumi';
import type { Client } from '../provider/client';
import { clientFromConfig } from '../provider/framework/config-client';
import { assertApiKeyIsSecret } from './secret-config';

let client: Client | undefined;

/**
 * The client the lookups use in the program process: stack config `svc:*` first (read raw, so a
 * secret API key is used without being printed), then the environment and the settings file.
 * A plain-text `svc:apiKey` is refused before the first call (see secret-config.ts).
 */
export function programClient(): Client {
  assertApiKeyIsSecret();
  if (!client) {
    client = clientFromConfig((key) => pulumi.runtime.getConfig(key));
  }
  return client;
}
