import * as fs from 'node:fs';
import type { Client } from '../provider/client';
import {
  ADOPT_FILTERS,
  type AccountList,
  type AdoptFilter,
  type ApiObject,
} from '../provider/kinds/faces';
import { clientFromConfig } from '../provider/framework/config-client';
import {
  ADOPTION_FACES,
  describedKinds,
  importFile,
  leftovers,
  narrowed,
  unownedObjects,
  type AdoptFilters,
  type AdoptionFaces,
  type ImportEntry,
} from './adopt';
import { EXIT, parseCommandArgs, type Command, type OptionSpecs, type ParsedArgs } from './command';
import { shrinkingPages } from './pages';
import { audit, formatAudit, hasFindings, type AuditReport } from './audit';
import { BILLING_FACES, type BillingFaces } from './billed-kinds';
import { pulumiJson, type StackState, type StateResource } from './pulumi';
import { stackClient } from './stack-client';

export interface AuditArgs {
  stacks: string[];
  json: boolean;
  /** Where to write Pulumi's bulk import file of what no stack owns. */
  importFile?: string;
  filters: AdoptFilters;
}

/** Each filter's placeholder and what it keeps; the kinds it describes come from their faces. */
const FILTER_HELP: Record<AdoptFilter, [value: string, keeps: string]> = {
  datacenter: ['DC', 'what is in this datacenter'],
  hostname: ['GLOB', 'what has a hostname that matches (* and ?)'],
  domain: ['GLOB', 'what is of a domain that matches (* and ?)'],
  tag: ['TAG', 'what has this tag'],
};

function filterOptions(): OptionSpecs {
  return Object.fromEntries(
    ADOPT_FILTERS.map((filter) => {
      const [value, keeps] = FILTER_HELP[filter];
      const help = `adopt only ${keeps} (${describedKinds(filter)})`;
      return [filter, { type: 'string', value, help }];
    }),
  );
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
  ...filterOptions(),
  json: { type: 'boolean', help: 'print the report as JSON' },
} as const satisfies OptionSpecs;

function auditArgs(args: ParsedArgs): AuditArgs {
  const filters: AdoptFilters = {};
  for (const f of ADOPT_FILTERS) {
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

/** A list method's every item, page by page. */
async function allPages(client: Client, { service, method, mask }: AccountList) {
  const items: ApiObject[] = [];
  for await (const page of shrinkingPages<ApiObject>(client, service, method, { mask }))
    items.push(...page);
  return items;
}

/** Reads each list the faces name once (a billed kind's adoption reads its audit's list too). */
function accountLists(client: Client): (list: AccountList) => Promise<ApiObject[]> {
  const read = new Map<string, Promise<ApiObject[]>>();
  return (list) => {
    const key = `${list.service}.${list.method}[${list.mask}]`;
    if (!read.has(key)) read.set(key, allPages(client, list));
    return read.get(key)!;
  };
}

/** The faces the audit reads the account through: the registry's, or a test's. */
export interface AuditFaces {
  billing: BillingFaces;
  adoption: AdoptionFaces;
}

/**
 * Holds the account's objects against the states: every billed kind's (those ending left out)
 * for the audit, every adoptable kind's for the import file of what no stack owns (narrowed by
 * the filters) and for what unfinished creates left (not narrowed: a finding, not an adoption).
 */
export async function auditAccount(
  client: Client,
  states: StackState[],
  filters: AdoptFilters = {},
  faces: AuditFaces = { billing: BILLING_FACES, adoption: ADOPTION_FACES },
): Promise<AuditReport & { importable: ImportEntry[] }> {
  const list = accountLists(client);
  const billed: Record<string, ApiObject[]> = {};
  for (const [kind, { audit: face }] of Object.entries(faces.billing))
    billed[kind] = (await list(face.list)).filter((object) => !face.ended(object));
  const account: Record<string, ApiObject[]> = {};
  for (const [kind, face] of Object.entries(faces.adoption)) {
    const items = await list(face.list);
    account[kind] = face.objectsIn ? items.flatMap((item) => face.objectsIn!(item)) : items;
  }
  const unowned = narrowed(
    unownedObjects(states, account, faces.adoption),
    filters,
    faces.adoption,
  );
  const importable = importFile(unowned, faces.adoption).resources;
  const left = leftovers(states, account, faces.adoption);
  return {
    ...audit(states, billed, { unowned: importable, leftovers: left }, faces.billing),
    importable,
  };
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
  return auditAccount(client, states, filters);
}

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
    'holds the account against the states: orphans, vanished objects, drift, what no stack owns, leftovers',
  usage: '[options]',
  description: `Holds the account against the states of the named stacks (default: every stack of the current backend): billed objects that carry this provider's provenance but are in no state, state entries whose object is gone, objects changed outside Pulumi (their size, names, tags or bill), the objects no stack owns (${Object.keys(ADOPTION_FACES).join(', ')}), and those an unfinished create left of the kinds that bill nothing (still carrying its creation token; never put in the import file). The account's credentials come from the first stack's svc:* config (never printed), else SVC_* or ~/.svc.

Exits with status ${EXIT.findings} when it finds anything, so it can gate CI.`,
  options: AUDIT_OPTIONS,
  run: (cwd, args, env) => printAudit(cwd, auditArgs(args), env),
};
