import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MOVED_TO_PLUGIN_CONFIG } from '../provider/dynamic/moved-to-plugin';
import { backendKey } from '../provider/framework/creation-token';
import { dynamicToken } from '../provider/kinds/tokens';
import { MigrationRefused, migrateState, type ExportedState, type Migration } from './migrate';
import { EXIT, parseCommandArgs, type Command, type OptionSpecs, type ParsedArgs } from './command';
import { pulumiJson, pulumiOutput } from './pulumi';

/**
 * `pulumi-svc migrate [--stack NAME] [--dry-run] [--provider-version V] [--backup FILE] [--json]`:
 * runs `pulumi stack export`, rewrites the state (migrate.ts), keeps the export as a backup,
 * `pulumi stack import`s the result and checks that the stack now holds every id it held, under
 * the plugin's types. Reads and writes ciphertext only: no secret is decrypted, nothing is called
 * but the user's own Pulumi CLI.
 */

export interface MigrateArgs {
  stack?: string;
  dryRun: boolean;
  providerVersion?: string;
  backup?: string;
  json: boolean;
}

export interface MigrateReport extends Omit<Migration, 'state'> {
  stack: string;
  dryRun: boolean;
  /** The state as it was before, written before anything was imported. */
  backup?: string;
}

const MIGRATE_OPTIONS = {
  stack: {
    type: 'string',
    value: 'NAME',
    help: "the stack to move (default: the project's current one)",
  },
  'dry-run': { type: 'boolean', help: 'only print the plan; change nothing' },
  'provider-version': {
    type: 'string',
    value: 'V',
    help: "the provider version the rewritten program asks for (an SDK's), which names the default provider",
  },
  backup: {
    type: 'string',
    value: 'FILE',
    help: 'where the state as it was is written before anything is imported (default: pulumi-svc-migrate-backup-<stack>-<time>.json)',
  },
  json: { type: 'boolean', help: 'print the result as JSON' },
} as const satisfies OptionSpecs;

function migrateArgs(args: ParsedArgs): MigrateArgs {
  return {
    stack: args.string('stack'),
    dryRun: args.flag('dry-run'),
    providerVersion: args.string('provider-version'),
    backup: args.string('backup'),
    json: args.flag('json'),
  };
}

export const parseMigrateArgs = (argv: string[]): MigrateArgs =>
  migrateArgs(parseCommandArgs('migrate', MIGRATE_COMMAND, argv));

const stackArgs = (stack: string) => ['--stack', stack];

/** `<stack>-20260101T120000Z`, safe as a file name. */
const backupName = (stack: string, now: Date) =>
  `pulumi-svc-migrate-backup-${stack.replace(/[^\w.-]+/g, '_')}-${now.toISOString().replace(/[-:]|\.\d+/g, '')}.json`;

/** Writes a state file readable by its owner only; never overwrites one. */
function writeState(file: string, state: ExportedState): void {
  fs.writeFileSync(file, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
}

/** Whether the imported stack holds every moved id under its new URN and no dynamic resource of ours. */
function checkImported(state: ExportedState, migration: Migration): string[] {
  const resources = state.deployment.resources ?? [];
  const problems = migration.moved
    .filter((m) => m.id !== undefined && !resources.some((r) => r.urn === m.to && r.id === m.id))
    .map((m) => `${m.to} (id ${m.id}) is not in the imported state`);
  const left = resources.filter((r) => r.type.startsWith(dynamicToken('')));
  return [...problems, ...left.map((r) => `${r.urn} is still a dynamic resource`)];
}

/** Imports `state` into the stack through a private temporary file. */
async function importState(
  cwd: string,
  stack: string,
  state: ExportedState,
  env: Record<string, string>,
): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pulumi-svc-migrate-'));
  try {
    const file = path.join(dir, 'state.json');
    writeState(file, state);
    await pulumiOutput(['stack', 'import', '--file', file, ...stackArgs(stack)], { cwd, env });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Moves a stack's state to the plugin; see the module comment. */
export async function migrateStack(
  cwd: string,
  args: MigrateArgs,
  env: Record<string, string> = {},
): Promise<MigrateReport> {
  const stack = args.stack ?? (await pulumiOutput(['stack', '--show-name'], { cwd, env })).trim();
  const exported = await pulumiJson<ExportedState>(['stack', 'export', ...stackArgs(stack)], {
    cwd,
    env,
  });
  let migration: Migration;
  try {
    migration = migrateState(exported, {
      providerVersion: args.providerVersion,
      config: { [MOVED_TO_PLUGIN_CONFIG]: 'true' },
      backend: backendKey({ ...process.env, ...env }),
    });
  } catch (err) {
    if (!(err instanceof MigrationRefused)) throw err;
    const list = err.problems.map((problem) => `  - ${problem}`).join('\n');
    throw new MigrationRefused([`stack ${stack} is left as it is:\n${list}`]);
  }
  const { state: _state, ...plan } = migration;
  const report: MigrateReport = { stack, dryRun: args.dryRun, ...plan };
  if (args.dryRun || migration.moved.length === 0) return report;

  const backup = path.resolve(cwd, args.backup ?? backupName(stack, new Date()));
  writeState(backup, exported);
  report.backup = backup;
  await importState(cwd, stack, migration.state, env);
  const imported = await pulumiJson<ExportedState>(['stack', 'export', ...stackArgs(stack)], {
    cwd,
    env,
  });
  const problems = checkImported(imported, migration);
  if (problems.length > 0) {
    await importState(cwd, stack, exported, env);
    throw new Error(
      `the imported state was not what was written, so the state from before was imported again (${backup}):\n${problems.join('\n')}`,
    );
  }
  // From now on the dynamic classes refuse to run on this stack (they would order it all again).
  const guard = [
    'config',
    'set',
    '--plaintext',
    MOVED_TO_PLUGIN_CONFIG,
    'true',
    ...stackArgs(stack),
  ];
  await pulumiOutput(guard, { cwd, env }).catch((err: Error) => {
    throw new Error(
      `stack ${stack} is moved (its state before is in ${backup}), but setting ${MOVED_TO_PLUGIN_CONFIG} failed; set it yourself (\`pulumi ${guard.join(' ')}\`) before the program on the dynamic classes runs again: ${err.message}`,
    );
  });
  return report;
}

/** The report as the person running the command reads it. */
export function formatMigration(report: MigrateReport): string {
  const { stack, moved } = report;
  if (moved.length === 0) {
    return `stack ${stack}: no resources of the dynamic pulumi-svc classes; nothing to migrate`;
  }
  const lines = [
    `stack ${stack}: ${moved.length} resource(s) from the dynamic classes to the provider plugin${report.dryRun ? ' (dry run: nothing written)' : ''}`,
  ];
  const width = Math.max(...moved.map((m) => m.name.length));
  for (const m of moved) {
    lines.push(`  ${m.kind.padEnd(13)} ${m.name.padEnd(width)}  id ${m.id ?? '-'}  ${m.to}`);
  }
  if (report.provider) {
    const version = report.provider.version ? `version ${report.provider.version}` : 'no version';
    const how = report.provider.added ? "added, with the stack's svc:* config" : 'already there';
    lines.push(`  provider ${report.provider.urn} (${how}, ${version})`);
  }
  for (const urn of report.droppedProviders) lines.push(`  dropped ${urn} (no resource uses it)`);
  if (report.dryRun) return lines.join('\n');
  lines.push(
    'Imported; every id is in the stack under its new type.',
    `${MOVED_TO_PLUGIN_CONFIG} is set: the dynamic classes now refuse to run on this stack.`,
    `The state before is kept in ${report.backup}; to go back: pulumi stack import --stack ${stack} --file ${report.backup} && pulumi config rm ${MOVED_TO_PLUGIN_CONFIG} --stack ${stack}`,
    'Next: run the program rewritten on the plugin; `pulumi preview --diff` shows no change.',
  );
  return lines.join('\n');
}

export const MIGRATE_COMMAND: Command = {
  summary: 'moves a stack from the dynamic resource classes to the provider plugin',
  usage: '[options]',
  description: `Moves a stack from the dynamic resource classes to the provider plugin (svc:index:<Kind>): \`pulumi stack export\`, the state rewritten (same ids, no code), a backup of it as it was, \`pulumi stack import\`, then svc:movedToPlugin set (the dynamic classes refuse the stack from then on). Refuses a stack with pending operations or unknown kinds. Reads and writes ciphertext only; calls nothing but your Pulumi CLI.`,
  options: MIGRATE_OPTIONS,
  async run(cwd, parsed, env) {
    const args = migrateArgs(parsed);
    const report = await migrateStack(cwd, args, env);
    console.log(args.json ? JSON.stringify(report) : formatMigration(report));
    return EXIT.ok;
  },
};
