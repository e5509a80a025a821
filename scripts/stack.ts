import {
  LocalWorkspace,
  PulumiCommand,
  type PulumiFn,
  type Stack,
} from '@pulumi/pulumi/automation';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The checkout (or installed package) root: where Pulumi.yaml, node_modules and scripts/ live. */
export const PACKAGE_ROOT = path.resolve(
  __dirname,
  '..',
  fs.existsSync(path.resolve(__dirname, '..', 'package.json')) ? '' : '..',
);

let command: Promise<PulumiCommand> | undefined;

/**
 * The Pulumi CLI matching the SDK: `PULUMI_BIN_DIR` when the caller already ran
 * scripts/ensure-pulumi, otherwise that script is run now (it builds the CLI once per machine).
 */
export function pulumiCommand(): Promise<PulumiCommand> {
  if (!command) {
    const bin =
      process.env.PULUMI_BIN_DIR ??
      execFileSync(path.join(PACKAGE_ROOT, 'scripts', 'ensure-pulumi'), {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      })
        .trim()
        .split('\n')
        .pop()!;
    command = PulumiCommand.get({ root: path.dirname(bin), skipVersionCheck: true });
  }
  return command;
}

export interface StackOptions {
  projectName: string;
  stackName: string;
  program: PulumiFn;
  /** Folder for the file:// backend (created if missing). */
  stateDir: string;
  /** Stack config; values with `secret: true` are encrypted in the state. */
  config?: Record<string, { value: string; secret?: boolean }>;
  /** Extra environment for the CLI and the provider process. */
  env?: Record<string, string>;
}

/** Offline, non-interactive settings: local file backend, passphrase secrets, no update checks or plugin downloads. */
export function offlineEnv(stateDir: string): Record<string, string> {
  return {
    PULUMI_BACKEND_URL: `file://${stateDir}`,
    PULUMI_CONFIG_PASSPHRASE: process.env.PULUMI_CONFIG_PASSPHRASE ?? 'pulumi-svc-local',
    PULUMI_SKIP_UPDATE_CHECK: 'true',
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: 'true',
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: 'true',
  };
}

/**
 * A stack whose program runs inline in this process. The engine then needs no language host,
 * only the CLI; the dynamic providers run in a provider process started in PACKAGE_ROOT, where
 * `pulumi-svc/runtime` resolves.
 */
export async function openStack(options: StackOptions): Promise<Stack> {
  // The workspace folder holds Pulumi.yaml and the stack's config file; `main` makes the engine
  // start the provider process in PACKAGE_ROOT.
  const workDir = path.join(options.stateDir, 'workspaces', options.projectName);
  fs.mkdirSync(workDir, { recursive: true });
  const stack = await LocalWorkspace.createOrSelectStack(
    { projectName: options.projectName, stackName: options.stackName, program: options.program },
    {
      pulumiCommand: await pulumiCommand(),
      workDir,
      projectSettings: { name: options.projectName, runtime: 'nodejs', main: PACKAGE_ROOT },
      envVars: { ...offlineEnv(options.stateDir), ...options.env },
      secretsProvider: 'passphrase',
    },
  );
  if (options.config) await stack.setAllConfig(options.config);
  return stack;
}
