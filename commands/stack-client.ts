import type { Client } from '../provider/client';
import { clientFromConfig } from '../provider/framework/config-client';
import { pulumiJson } from './pulumi';

/**
 * A client for the account of a stack: its `svc:*` config (read by this process through the
 * user's CLI, never printed), else SVC_* or ~/.svc. `stack` undefined: the project's current one.
 */
export async function stackClient(
  cwd: string,
  stack: string | undefined,
  env: Record<string, string> = {},
): Promise<Client> {
  const config = await pulumiJson<Record<string, { value?: string }>>(
    ['config', '--json', '--show-secrets', ...(stack ? ['--stack', stack] : [])],
    { cwd, env },
  ).catch(() => ({}) as Record<string, { value?: string }>);
  return clientFromConfig((key) => config[key]?.value);
}
