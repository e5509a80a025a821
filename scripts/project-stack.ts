import * as fs from 'node:fs';
import * as path from 'node:path';
import type { StateResource } from '../commands/pulumi';
import {
  offlineEnv,
  pulumi,
  runPulumi,
  spawnPulumi,
  type PulumiProcess,
  type PulumiRun,
  type RunOptions,
} from './pulumi-cli';

export type StackConfig = Record<string, { value: string; secret?: boolean }>;

export interface ProjectStackOptions {
  /** The Pulumi project directory (holds Pulumi.yaml). */
  dir: string;
  stackName: string;
  /** Folder of the file:// backend (created if missing). */
  stateDir: string;
  /** Another state backend (e.g. postgres://...) instead of the file:// one. */
  backendUrl?: string;
  /** Extra environment for the CLI, the language host and the provider process. */
  env?: Record<string, string>;
  /** Receives everything the CLI prints (when its output is piped). */
  onOutput?: (text: string) => void;
  /** The folder of the CLI to run (default: pulumiBinDir()). */
  binDir?: string;
}

/**
 * A stack of a project directory, driven through the Pulumi CLI exactly as a user types it
 * (`pulumi up --stack <name>` in that directory), with state in a local file backend.
 */
export class ProjectStack {
  readonly env: Record<string, string>;

  constructor(readonly options: ProjectStackOptions) {
    fs.mkdirSync(options.stateDir, { recursive: true });
    this.env = { ...offlineEnv(options.stateDir), ...options.env };
    if (options.backendUrl) this.env.PULUMI_BACKEND_URL = options.backendUrl;
  }

  get dir(): string {
    return this.options.dir;
  }

  /** How every command of this stack runs; `shown` sends its output to onOutput. */
  private runOptions(stdio: 'inherit' | 'pipe' = 'pipe', shown = true): RunOptions {
    return {
      cwd: this.options.dir,
      binDir: this.options.binDir,
      env: this.env,
      stdio,
      onOutput: shown ? this.options.onOutput : undefined,
    };
  }

  private withStack(args: string[]): string[] {
    return [...args, '--stack', this.options.stackName];
  }

  /** Starts `pulumi <args> --stack <name>` without waiting (to kill it mid-run). */
  spawn(args: string[], stdio: 'inherit' | 'pipe' = 'pipe'): PulumiProcess {
    return spawnPulumi(this.withStack(args), this.runOptions(stdio));
  }

  /** Runs `pulumi <args> --stack <name>`; throws with the CLI's output when it fails. */
  async run(args: string[], stdio: 'inherit' | 'pipe' = 'pipe'): Promise<PulumiRun> {
    return pulumi(this.withStack(args), this.runOptions(stdio));
  }

  /** The standard output of a command that answers with data (kept out of onOutput). */
  async capture(args: string[]): Promise<string> {
    return (await pulumi(this.withStack(args), this.runOptions('pipe', false))).stdout;
  }

  /** A command's JSON answer, parsed. */
  async query<T>(args: string[]): Promise<T> {
    return JSON.parse(await this.capture(args)) as T;
  }

  /** Creates the stack if it is new, then sets its config in one call. */
  async init(config: StackConfig = {}): Promise<void> {
    // `stack init` and "already exists" rather than `stack ls` first: on a PostgreSQL backend
    // holding a few stacks, the CLI's listing was seen to hang (3.248).
    const created = await runPulumi(
      ['stack', 'init', this.options.stackName, '--secrets-provider', 'passphrase'],
      this.runOptions('pipe', false),
    );
    if (created.code !== 0 && !/already exists/.test(created.stderr + created.stdout)) {
      throw new Error(`pulumi stack init ${this.options.stackName} failed:\n${created.stderr}`);
    }
    await this.setConfig(config);
  }

  async setConfig(config: StackConfig): Promise<void> {
    const pairs = Object.entries(config).flatMap(([key, { value, secret }]) => [
      secret ? '--secret' : '--plaintext',
      `${key}=${value}`,
    ]);
    if (pairs.length > 0) await this.run(['config', 'set-all', ...pairs]);
  }

  up(args: string[] = [], stdio?: 'inherit' | 'pipe'): Promise<PulumiRun> {
    return this.run(['up', '--yes', '--non-interactive', '--skip-preview', ...args], stdio);
  }

  preview(args: string[] = [], stdio?: 'inherit' | 'pipe'): Promise<PulumiRun> {
    return this.run(['preview', '--non-interactive', ...args], stdio);
  }

  refresh(args: string[] = [], stdio?: 'inherit' | 'pipe'): Promise<PulumiRun> {
    return this.run(['refresh', '--yes', '--non-interactive', '--skip-preview', ...args], stdio);
  }

  destroy(args: string[] = [], stdio?: 'inherit' | 'pipe'): Promise<PulumiRun> {
    return this.run(['destroy', '--yes', '--non-interactive', '--skip-preview', ...args], stdio);
  }

  /** The stack's outputs (secret ones stay `[secret]`). */
  async outputs(): Promise<Record<string, unknown>> {
    return this.query<Record<string, unknown>>(['stack', 'output', '--json']);
  }

  /** The resources in the stack's state (`pulumi stack export`). */
  async resources(): Promise<StateResource[]> {
    const exported = await this.query<{ deployment?: { resources?: StateResource[] } }>([
      'stack',
      'export',
    ]);
    return exported.deployment?.resources ?? [];
  }

  /** The urn of the resource named `name` (the last part of its urn). */
  async urnOf(name: string): Promise<string> {
    const found = (await this.resources()).find((r) => r.urn.endsWith(`::${name}`));
    if (!found) throw new Error(`no resource named ${name} in stack ${this.options.stackName}`);
    return found.urn;
  }
}

/** Copies a project directory (no node_modules) so each stack test owns its Pulumi.<stack>.yaml. */
export function copyProject(from: string, to: string, nodeModules: string): void {
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) =>
      !/(^|[/\\])(node_modules|Pulumi\.[^/\\]+\.yaml)$/.test(path.relative(from, src)),
  });
  fs.symlinkSync(nodeModules, path.join(to, 'node_modules'), 'dir');
}
