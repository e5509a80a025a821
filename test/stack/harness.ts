import type { EngineEvent, PulumiFn, Stack } from '@pulumi/pulumi/automation';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../../emulator';
import { Client } from '../../provider/client';
import type { VirtualGuest } from '../../provider/managers';
import { openStack } from '../../scripts/stack';

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

export interface StackFixture {
  emulator: Emulator;
  stack: Stack;
  client: Client;
  stateDir: string;
  /** Everything the CLI printed so far, across all operations. */
  output: string[];
  /** Each diagnostic once, as the engine reported it: `<severity>: <message>` (provider lines are `info`). */
  diagnostics: string[];
  run: { onOutput: (text: string) => void; onEvent: (event: EngineEvent) => void };
  guests(filter?: (guest: VirtualGuest) => boolean): Promise<VirtualGuest[]>;
  close(): Promise<void>;
}

export interface FixtureOptions {
  program: PulumiFn;
  projectName?: string;
  provisioningDelayMs?: number;
  config?: Record<string, { value: string; secret?: boolean }>;
  /** Reuse a state folder (and stack) from an earlier fixture. */
  stateDir?: string;
  port?: number;
  dataDir?: string;
}

export const GUEST_MASK =
  'id,hostname,domain,startCpus,maxCpu,hourlyBillingFlag,primaryIpAddress,tagReferences.tag.name';

/** A fresh emulator on loopback and a stack (file backend in a temp folder) pointed at it. */
export async function stackFixture(options: FixtureOptions): Promise<StackFixture> {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'svc-stack-'));
  const emulator = await startEmulator({
    port: options.port ?? 0,
    seed: 'demo',
    dataDir: options.dataDir,
    provisioningDelayMs: options.provisioningDelayMs ?? 500,
  });
  const { username, apiKey } = emulator.credentials;
  const stack = await openStack({
    projectName: options.projectName ?? 'stacktest',
    stackName: 'test',
    program: options.program,
    stateDir,
    config: {
      'svc:endpointUrl': { value: emulator.url },
      'svc:username': { value: username },
      'svc:apiKey': { value: apiKey, secret: true },
      ...options.config,
    },
  });
  const client = new Client({ username, apiKey, endpointUrl: emulator.url });
  const output: string[] = [];
  const diagnostics: string[] = [];
  return {
    emulator,
    stack,
    client,
    stateDir,
    output,
    diagnostics,
    run: {
      onOutput: (text) => output.push(text),
      onEvent: (event) => {
        if (event.diagnosticEvent)
          diagnostics.push(`${event.diagnosticEvent.severity}: ${event.diagnosticEvent.message}`);
      },
    },
    async guests(filter = () => true) {
      const all = (await client.call('Account', 'getVirtualGuests', {
        mask: GUEST_MASK,
      })) as VirtualGuest[];
      return all.filter(filter);
    },
    async close() {
      await emulator.close();
      // Kept for scripts/check-no-secrets.ts, which searches all test output for credentials.
      const logDir = process.env.SVC_TEST_LOG_DIR;
      if (logDir) {
        const name = `pulumi-${path.basename(stateDir)}.log`;
        fs.writeFileSync(path.join(logDir, name), [...output, ...diagnostics].join('\n'));
      }
    },
  };
}

export const hasTag = (tag: string) => (guest: VirtualGuest) =>
  (guest.tagReferences ?? []).some((ref) => ref.tag?.name === tag);

const WRITE_METHOD = /\.(create|edit|delete|set|add|cancel|power|place)[A-Za-z]*$/;

/** Calls of write methods the emulator served (all of them, or those of one method name). */
export function writeCalls(emulator: Emulator, method?: string): number {
  return Object.entries(emulator.stats().calls)
    .filter(([call]) => (method ? call.endsWith(`.${method}`) : WRITE_METHOD.test(call)))
    .reduce((sum, [, count]) => sum + count, 0);
}
