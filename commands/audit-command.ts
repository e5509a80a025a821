import type { VirtualGuest } from '../provider/managers';
import { clientFromConfig } from '../provider/framework/config-client';
import { AUDIT_MASK, audit, formatAudit, type AuditReport, type StackState } from './audit';
import { pulumiJson, type StateResource } from './pulumi';
import { readOptions } from './args';

/**
 * Reads the states (`pulumi stack export`) of the named stacks, or of every stack of the current
 * backend, and every guest of the account, then audits them. The account's credentials come from
 * the first stack's `svc:*` config (read by this process, never printed), else SVC_* or ~/.svc.
 */
export async function gatherAudit(
  cwd: string,
  stacks: string[],
  env: Record<string, string> = {},
): Promise<AuditReport> {
  const names = stacks.length
    ? stacks
    : (await pulumiJson<{ name: string }[]>(['stack', 'ls', '--all', '--json'], { cwd, env })).map(
        (s) => s.name,
      );
  const states: StackState[] = [];
  for (const stack of names) {
    const exported = await pulumiJson<{ deployment?: { resources?: StateResource[] } }>(
      ['stack', 'export', '--stack', stack],
      { cwd, env },
    );
    states.push({ stack, resources: exported.deployment?.resources ?? [] });
  }
  const config = names.length
    ? await pulumiJson<Record<string, { value?: string }>>(
        ['config', '--json', '--show-secrets', '--stack', names[0]],
        { cwd, env },
      ).catch(() => ({}) as Record<string, { value?: string }>)
    : {};
  const client = clientFromConfig((key) => config[key]?.value);
  const guests: VirtualGuest[] = [];
  for await (const guest of client.iterCall('Account', 'getVirtualGuests', { mask: AUDIT_MASK }))
    guests.push(guest as VirtualGuest);
  return audit(states, guests);
}

/** `pulumi-svc audit [--json] [--stack NAME]...` */
export async function printAudit(cwd: string, args: string[]): Promise<AuditReport> {
  const given = readOptions('audit', args, { stack: { value: true, multiple: true }, json: {} });
  const report = await gatherAudit(cwd, (given.stack as string[] | undefined) ?? []);
  console.log(given.json ? JSON.stringify(report) : formatAudit(report));
  return report;
}
