import * as pulumi from '@pulumi/pulumi';
import { Client } from '../provider/client';
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
    const get = (key: string) => pulumi.runtime.getConfig(`svc:${key}`) || undefined;
    const timeout = get('timeout');
    client = new Client({
      username: get('username'),
      apiKey: get('apiKey'),
      endpointUrl: get('endpointUrl'),
      timeout: timeout === undefined ? undefined : Number(timeout),
    });
  }
  return client;
}
