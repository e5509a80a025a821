import * as fs from 'node:fs';
import type { Client } from '../provider/client';
import type { DnsZone, SshKey, VirtualGuest } from '../provider/managers';
import { RECORD_MASK, SSH_KEY_MASK } from '../provider/managers';
import type { ApiObject } from '../provider/kinds/faces';
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
import { audit, formatAudit, type AuditReport, type BilledObjects } from './audit';
import { BILLING_FACES } from './billed-kinds';
import { pulumiJson, type StackState, type StateResource } from './pulumi';
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

/** Every object of each billed kind, as its audit face lists it, those ending left out. */
async function billedObjects(client: Client): Promise<BilledObjects> {
  const objects: Record<string, ApiObject[]> = {};
  for (const [kind, { audit: face }] of Object.entries(BILLING_FACES)) {
    const { service, method, mask } = face.list;
    objects[kind] = [];
    for await (const page of shrinkingPages<ApiObject>(client, service, method, { mask }))
      objects[kind].push(...page.filter((object) => !face.ended(object)));
  }
  return objects;
}

/** The keys, zones and records of the account, and its guests, for the adoption. */
async function accountObjects(client: Client, billed: BilledObjects): Promise<AccountObjects> {
  const keys = (await client.call('Account', 'getSshKeys', { mask: SSH_KEY_MASK })) as SshKey[];
  const zones = (await client.call('Account', 'getDomains', {
    mask: `id,name,resourceRecords[${RECORD_MASK}]`,
  })) as DnsZone[];
  return { guests: (billed.VirtualGuest ?? []) as VirtualGuest[], keys, zones };
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
  const billed = await billedObjects(client);
  const account = await accountObjects(client, billed);
  const importable = importFile(narrowed(unownedObjects(states, account), filters)).resources;
  return { ...audit(states, billed, importable), importable };
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
