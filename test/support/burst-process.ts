/**
 * One process of a rate-limit test: `count` calls at once through a client limited to
 * `SVC_MAX_CALLS_PER_SECOND`, then prints how many the API refused for its rate limit.
 * Settings come from the environment (SVC_ENDPOINT_URL, SVC_USERNAME, SVC_API_KEY).
 */
import { Client, isRateLimited } from '../../provider/client';
import { EMPTY_SETTINGS } from './client-setup';

async function main(): Promise<void> {
  const client = new Client({ configFile: EMPTY_SETTINGS, retry: false });
  const results = await Promise.allSettled(
    Array.from({ length: Number(process.argv[2]) }, () =>
      client.call('Account', 'getObject', { mask: 'id' }),
    ),
  );
  const refused = results.filter((r) => r.status === 'rejected' && isRateLimited(r.reason));
  const failed = results.filter((r) => r.status === 'rejected').length - refused.length;
  console.log(JSON.stringify({ refused: refused.length, failed }));
}

void main();
