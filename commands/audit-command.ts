import * as fs from 'node:fs';
import type { Client } from '../provider/client';
import type { DnsZone, SecurityGroup, SshKey, VirtualGuest } from '../provider/managers';
import { RECORD_MASK, SSH_KEY_MASK, isReclaiming } from '../provider/managers';
import { clientFromConfig } from '../provider/framework/config-client';
import {
  importFile,
  narrowed,
  unownedObjects,
  type AccountObjects,
  type AdoptFilters,
  type ImportEntry,
} from './adopt';
import { option, options, refuseUnknown } from './args';
import { shrinkingPages } from './pages';
import { AUDIT_MASK, audit, formatAudit, type AuditReport, type StackState } from './audit';
import { pulumiJson, type StateResource } from './pulumi';
import { stackClient } from './stack-client';

export interface AuditArgs {
  stacks: string[];
  json: boolean;
  /** Where to write Pulumi's bulk import file of what no stack owns. */
  importFile?: string;
  filters: AdoptFilters;
}

const FILTERS = ['datacenter', 'hostname', 'domain', 'tag'] as const;

export function parseAuditArgs(args: string[]): AuditArgs {
  refuseUnknown('audit', args, {
    options: ['--stack', '--import-file', ...FILTERS.map((f) => `--${f}`)],
    flags: ['--json'],
  });
  const filters: AdoptFilters = {};
  for (const f of FILTERS) {
    const value = option(args, `--${f}`);
    if (value !== undefined) filters[f] = value;
  }
  return {
    stacks: options(args, '--stack'),
    json: args.includes('--json'),
    importFile: option(args, '--import-file'),
    filters,
  };
}

/**
 * A guest's datacenter too (the filters and the import's names need it), and its transaction: a
 * guest being reclaimed (cancelled, billed no more) is left out, neither orphan nor importable.
 */
const GUEST_MASK = `${AUDIT_MASK},datacenter.name,activeTransaction.transactionStatus.name`;

/** Every guest, key, zone, record and security group of the account. */
async function accountObjects(client: Client): Promise<AccountObjects> {
  const guests: VirtualGuest[] = [];
  const pages = shrinkingPages<VirtualGuest>(client, 'Account', 'getVirtualGuests', {
    mask: GUEST_MASK,
  });
  for await (const page of pages) guests.push(...page.filter((guest) => !isReclaiming(guest)));
  const keys = (await client.call('Account', 'getSshKeys', { mask: SSH_KEY_MASK })) as SshKey[];
  const zones = (await client.call('Account', 'getDomains', {
    mask: `id,name,resourceRecords[${RECORD_MASK}]`,
  })) as DnsZone[];
  const securityGroups = (await client.call('Account', 'getSecurityGroups', {
    mask: 'id,name',
  })) as SecurityGroup[];
  return { guests, keys, zones, securityGroups };
}

/**
 * Reads the states (`pulumi stack export`) of the named stacks, or of every stack of the current
 * backend, and the account's objects, then audits them. The account's credentials come from
 * the first stack's `svc:*` config (read by this process, never printed), else SVC_* or ~/.svc.
 */
export async function gatherAudit(
  cwd: string,
  stacks: string[],
  env: Record<string, string> = {},
  filters: AdoptFilters = {},
): Promise<AuditReport & { importable: ImportEntry[] }> {
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
  const client = names.length
    ? await stackClient(cwd, names[0], env)
    : clientFromConfig(() => undefined);
  const account = await accountObjects(client);
  const importable = importFile(narrowed(unownedObjects(states, account), filters)).resources;
  return { ...audit(states, account.guests, importable), importable };
}

/** `pulumi-svc audit [--json] [--stack NAME]... [--import-file PATH] [filters]` */
export async function printAudit(cwd: string, args: string[]): Promise<AuditReport> {
  const parsed = parseAuditArgs(args);
  const { importable, ...report } = await gatherAudit(cwd, parsed.stacks, {}, parsed.filters);
  if (parsed.importFile) {
    // Written whole, even when empty: a stale file from an earlier run would adopt too much.
    fs.writeFileSync(parsed.importFile, `${JSON.stringify({ resources: importable }, null, 2)}\n`);
  }
  console.log(parsed.json ? JSON.stringify(report) : formatAudit(report, parsed.importFile));
  return report;
}
