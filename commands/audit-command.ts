import * as fs from 'node:fs';
import type { Client } from '../provider/client';
import type { DnsZone, SecurityGroup, SshKey, VirtualGuest } from '../provider/managers';
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
import { EXIT, parseCommandArgs, type Command, type OptionSpecs, type ParsedArgs } from './command';
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

const AUDIT_OPTIONS = {
  stack: {
    type: 'string',
    multiple: true,
    value: 'NAME',
    help: 'a stack to audit against (repeatable; default: every stack of the current backend)',
  },
  'import-file': {
    type: 'string',
    value: 'PATH',
    help: "writes Pulumi's bulk import file for what no stack owns (`pulumi import --file PATH` on the provider plugin)",
  },
  datacenter: { type: 'string', value: 'DC', help: 'adopt only guests in this datacenter' },
  hostname: {
    type: 'string',
    value: 'GLOB',
    help: 'adopt only guests whose hostname matches (* and ?)',
  },
  domain: {
    type: 'string',
    value: 'GLOB',
    help: 'adopt only guests of that domain and zones of that name with their records',
  },
  tag: { type: 'string', value: 'TAG', help: 'adopt only guests with this tag' },
  json: { type: 'boolean', help: 'print the report as JSON' },
} as const satisfies OptionSpecs;

const FILTERS = ['datacenter', 'hostname', 'domain', 'tag'] as const;

function auditArgs(args: ParsedArgs): AuditArgs {
  const filters: AdoptFilters = {};
  for (const f of FILTERS) {
    const value = args.string(f);
    if (value !== undefined) filters[f] = value;
  }
  return {
    stacks: args.strings('stack'),
    json: args.flag('json'),
    importFile: args.string('import-file'),
    filters,
  };
}

export const parseAuditArgs = (argv: string[]): AuditArgs =>
  auditArgs(parseCommandArgs('audit', AUDIT_COMMAND, argv));

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

/** The keys, zones, records and security groups of the account, and its guests, for the adoption. */
async function accountObjects(client: Client, billed: BilledObjects): Promise<AccountObjects> {
  const keys = (await client.call('Account', 'getSshKeys', { mask: SSH_KEY_MASK })) as SshKey[];
  const zones = (await client.call('Account', 'getDomains', {
    mask: `id,name,resourceRecords[${RECORD_MASK}]`,
  })) as DnsZone[];
  const securityGroups = (await client.call('Account', 'getSecurityGroups', {
    mask: 'id,name',
  })) as SecurityGroup[];
  return { guests: (billed.VirtualGuest ?? []) as VirtualGuest[], keys, zones, securityGroups };
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

/** Whether the audit found anything: an orphan, a vanished object, drift, or something unowned. */
export const hasFindings = (r: AuditReport): boolean =>
  r.orphans.length + r.gone.length + r.drift.length + r.unowned.length > 0;

/** `pulumi-svc audit`: prints the report; EXIT.findings when it found anything. */
export async function printAudit(
  cwd: string,
  args: AuditArgs,
  env: Record<string, string> = {},
): Promise<number> {
  const { importable, ...report } = await gatherAudit(cwd, args.stacks, env, args.filters);
  if (args.importFile) {
    // Written whole, even when empty: a stale file from an earlier run would adopt too much.
    fs.writeFileSync(args.importFile, `${JSON.stringify({ resources: importable }, null, 2)}\n`);
  }
  console.log(args.json ? JSON.stringify(report) : formatAudit(report, args.importFile));
  return hasFindings(report) ? EXIT.findings : EXIT.ok;
}

export const AUDIT_COMMAND: Command = {
  summary:
    'holds the account against the states: orphans, vanished objects, drift, what no stack owns',
  usage: '[options]',
  description: `Holds the account against the states of the named stacks (default: every stack of the current backend): billed objects that carry this provider's provenance but are in no state, state entries whose object is gone, objects changed outside Pulumi (their size, names, tags or bill), and the guests, SSH keys, DNS zones and records no stack owns. The account's credentials come from the first stack's svc:* config (never printed), else SVC_* or ~/.svc.

Exits with status ${EXIT.findings} when it finds anything, so it can gate CI.`,
  options: AUDIT_OPTIONS,
  run: (cwd, args, env) => printAudit(cwd, auditArgs(args), env),
};
