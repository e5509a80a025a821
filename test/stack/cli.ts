import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { startEmulator } from '../../emulator';
import { Client, isWrite } from '../../provider/client';
import { CLIENT_SETTINGS } from '../../provider/client/settings';
import type { VirtualGuest } from '../../provider/managers';
import { PACKAGE_ROOT, pulumiBinDir } from '../../scripts/pulumi-cli';
import { killTree, livePids } from '../../scripts/processes';
import {
  billingChanges,
  type BillingChange,
  type PreviewJson,
} from '../../commands/billing-report';
import { ProjectStack, copyProject, type StackConfig } from '../../scripts/project-stack';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** Program directories of the stack tests. */
export const PROGRAMS = path.join(__dirname, 'programs');

export interface CliFixtureOptions {
  /** A directory under test/stack/programs, or an absolute project directory. */
  program: string;
  /** Run the program directory where it is, with its own node_modules (default: a copy using ours). */
  inPlace?: boolean;
  config?: StackConfig;
  provisioningDelayMs?: number;
  stackName?: string;
  /** Share an emulator with another fixture (it is not closed with this one). */
  emulator?: Emulator;
  /** A state backend other than a file:// folder of this fixture (e.g. a postgres:// URL). */
  backendUrl?: string;
  /** Let ts-node type-check the program, as Pulumi does by default (off: `npm test` runs tsc on them). */
  typeCheck?: boolean;
  /** More environment for the CLI and what it starts (a PATH given here comes after the CLI's). */
  env?: Record<string, string>;
  /** The folder of the CLI to run (default: the tests' CLI, pulumiBinDir()). */
  binDir?: string;
  /**
   * Where the provider finds the endpoint and credentials: stack config (default), or the
   * environment (`SVC_ENDPOINT_URL`, ...), which keeps them out of the state altogether.
   */
  credentials?: 'config' | 'environment';
  /** The node_modules the copied program runs with (default ours): another version's package. */
  nodeModules?: string;
}

export interface PulumiChanges {
  /** Counts per operation of the last update, as `pulumi stack history` reports them. */
  changes: Record<string, number>;
}

export interface CliFixture {
  emulator: Emulator;
  client: Client;
  stack: ProjectStack;
  /** The copy of the program directory this fixture runs. */
  dir: string;
  /** Everything the CLI printed so far. */
  output(): string;
  /** Resource changes of the last update (`pulumi stack history`). */
  lastChanges(): Promise<Record<string, number>>;
  /** Ids in the state of the given resource type (the short name, e.g. VirtualGuest). */
  stateIds(type: string): Promise<string[]>;
  guests(filter?: (guest: VirtualGuest) => boolean): Promise<VirtualGuest[]>;
  close(): Promise<void>;
}

export const GUEST_MASK =
  'id,hostname,domain,startCpus,maxCpu,maxMemory,hourlyBillingFlag,primaryIpAddress,tagReferences.tag.name';

/**
 * A copy of a program directory in a temp folder, its own file backend and stack, pointed at an
 * emulator on loopback: what a user has after `pulumi stack init` in their project. Every process
 * the CLI starts carries this fixture's marker in its environment, so `close` kills whatever is
 * left, even a provider process orphaned by a killed CLI.
 */
export async function cliFixture(options: CliFixtureOptions): Promise<CliFixture> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
  const source = path.isAbsolute(options.program)
    ? options.program
    : path.join(PROGRAMS, options.program);
  const dir = options.inPlace ? source : path.join(root, 'project');
  const nodeModules = options.nodeModules ?? path.join(PACKAGE_ROOT, 'node_modules');
  if (!options.inPlace) copyProject(source, dir, nodeModules);
  const emulator =
    options.emulator ??
    (await startEmulator({
      port: 0,
      seed: 'demo',
      provisioningDelayMs: options.provisioningDelayMs ?? 500,
    }));
  const marker = randomUUID();
  let output = '';
  const { username, apiKey } = emulator.credentials;
  const settings = { endpointUrl: emulator.url, username, apiKey };
  const inEnvironment = options.credentials === 'environment';
  const stack = new ProjectStack({
    dir,
    stackName: options.stackName ?? 'test',
    stateDir: path.join(root, 'state'),
    backendUrl: options.backendUrl,
    binDir: options.binDir,
    env: {
      SVC_FIXTURE: marker,
      ...(inEnvironment ? settingsEnvironment(settings) : {}),
      ...(options.typeCheck ? {} : { PULUMI_NODEJS_TRANSPILE_ONLY: 'true' }),
      ...options.env,
    },
    onOutput: (text) => (output += text),
  });
  await stack.init({
    ...(inEnvironment
      ? {}
      : {
          'svc:endpointUrl': { value: emulator.url },
          'svc:username': { value: username },
          'svc:apiKey': { value: apiKey, secret: true },
        }),
    ...options.config,
  });
  const client = new Client({ username, apiKey, endpointUrl: emulator.url });
  return {
    emulator,
    client,
    stack,
    dir,
    output: () => output,
    async lastChanges() {
      const history = await stack.query<{ resourceChanges?: Record<string, number> }[]>([
        'stack',
        'history',
        '--json',
        '--page-size',
        '1',
      ]);
      return history[0]?.resourceChanges ?? {};
    },
    async stateIds(type) {
      return (await stack.resources())
        .filter((r) => r.type.endsWith(`:${type}`) && r.id)
        .map((r) => r.id!);
    },
    async guests(filter = () => true) {
      const all = (await client.call('Account', 'getVirtualGuests', {
        mask: GUEST_MASK,
      })) as VirtualGuest[];
      return all.filter(filter);
    },
    async close() {
      for (const pid of livePids('SVC_FIXTURE', marker)) killTree(pid);
      if (!options.emulator) await emulator.close();
      // Kept for scripts/check-no-secrets.ts, which searches all test output for credentials:
      // what the CLI printed (the provider's lines among it) and every state the file backend
      // stored.
      const logDir = process.env.SVC_TEST_LOG_DIR;
      if (logDir) {
        fs.writeFileSync(path.join(logDir, `pulumi-${path.basename(root)}.log`), output);
        keepStates(path.join(root, 'state'), path.join(logDir, `state-${path.basename(root)}`));
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The provider's settings as the environment variables it reads when stack config has none. */
const settingsEnvironment = (
  settings: Partial<Record<keyof typeof CLIENT_SETTINGS, string>>,
): Record<string, string> =>
  Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [
      CLIENT_SETTINGS[key as keyof typeof CLIENT_SETTINGS].env,
      value!,
    ]),
  );

/**
 * The states a file backend stored (the stack's checkpoint, its backups and the checkpoint of
 * every update in its history), copied to `to`. Not the updates' `.history.json` records: they
 * hold the stack config as it was set (a test sets `svc:apiKey` in plain text on purpose).
 */
function keepStates(stateDir: string, to: string): void {
  if (!fs.existsSync(stateDir)) return;
  fs.cpSync(stateDir, to, {
    recursive: true,
    filter: (src) =>
      fs.statSync(src).isDirectory() || (src.endsWith('.json') && !src.endsWith('.history.json')),
  });
}

export const hasTag = (tag: string) => (guest: VirtualGuest) =>
  (guest.tagReferences ?? []).some((ref) => ref.tag?.name === tag);

/** Calls of write methods the emulator served: all, one method name, or one `Service.method`. */
export function writeCalls(emulator: Emulator, method?: string): number {
  const matches = (call: string) =>
    method ? call === method || call.endsWith(`.${method}`) : isWrite(call.split('.').pop()!);
  return Object.entries(emulator.stats().calls)
    .filter(([call]) => matches(call))
    .reduce((sum, [, count]) => sum + count, 0);
}

/** `pulumi preview --json`: the plan's billing changes and the provider's messages. */
export async function previewBilling(
  f: CliFixture,
  args: string[] = [],
): Promise<{ changes: BillingChange[]; messages: string }> {
  const preview = JSON.parse((await f.stack.preview(['--json', ...args])).stdout) as PreviewJson & {
    diagnostics?: { message?: string }[];
  };
  return {
    changes: billingChanges(preview),
    messages: (preview.diagnostics ?? []).map((d) => d.message ?? '').join(''),
  };
}

/** What a `pulumi-svc` run printed, and its exit status. */
export interface CommandRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** `npx pulumi-svc <args>` in `dir`, as a user runs it (the built command), whatever its status. */
export async function runPulumiSvc(
  dir: string,
  args: string[],
  env: Record<string, string>,
): Promise<CommandRun> {
  return promisify(execFile)(
    process.execPath,
    [path.join(PACKAGE_ROOT, 'dist', 'commands', 'cli.js'), ...args],
    {
      cwd: dir,
      env: {
        ...process.env,
        ...env,
        PATH: `${pulumiBinDir()}${path.delimiter}${process.env.PATH}`,
      },
    },
  ).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (err: { code?: unknown; stdout?: string; stderr?: string }) => {
      if (typeof err.code !== 'number') throw err;
      return { status: err.code, stdout: err.stdout ?? '', stderr: err.stderr ?? '' };
    },
  );
}

/**
 * `npx pulumi-svc <args>` in the fixture's project: what it printed when it ran to its end (exit
 * status 0, or 3: it found something); a failure or a usage error throws with what it said.
 */
export async function pulumiSvc(f: CliFixture, args: string[]): Promise<string> {
  const run = await runPulumiSvc(f.dir, args, f.stack.env);
  if (run.status !== 0 && run.status !== 3)
    throw new Error(`pulumi-svc ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}
