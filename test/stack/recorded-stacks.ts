import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../../emulator';
import { Journal, type JournalOp } from '../../emulator/journal';
import type { SeedName } from '../../emulator/seed';
import { PACKAGE_ROOT, pulumiBinDir } from '../../scripts/pulumi-cli';
import { cliFixture, PROGRAMS, type CliFixture, type Emulator } from './cli';
import type { DoorName } from './front-door';

/**
 * Stacks made by earlier versions, kept to be previewed by every later one (test/upgrade/README.md):
 * `test/upgrade/<version>/<door>/` holds the program as it ran, `state.json` (`pulumi stack
 * export`), `emulator.json` (what its run wrote to the emulator after the seed) and
 * `recording.json` (its stack config and what recorded it). The provider found the endpoint and
 * credentials in the environment, so the state holds neither, and a replay on another port
 * matches it; the emulator's ids are restored with its objects.
 */
export const UPGRADE_DIR = path.join(PACKAGE_ROOT, 'test', 'upgrade');

/** The stack name every recording has (its URNs and the guests' creation tokens carry it). */
export const RECORDED_STACK = 'recorded';

/** The program of each door (test/stack/programs/), one resource of each kind. */
export const RECORDED_PROGRAMS: Record<DoorName, string> = {
  dynamic: 'upgrade',
  plugin: 'upgrade-yaml',
};

const STATE = 'state.json';
const EMULATOR = 'emulator.json';
const RECORDING = 'recording.json';

export interface Recording {
  /** What recorded it: `pulumi-svc 0.1.0`, `commit b3808f5`. */
  recordedWith: string;
  /** The Pulumi CLI that ran it. */
  pulumi: string;
  /** Stack config of the program (no `svc:` setting: those were in the environment). */
  config: Record<string, string>;
}

/** The emulator's side of a recording: the seed, then each transaction the stack's run wrote. */
interface EmulatorRecord {
  seed: SeedName;
  transactions: JournalOp[][];
}

export interface RecordedStack {
  /** The folder's name under test/upgrade/: a version, or the commit that made it. */
  version: string;
  door: DoorName;
  dir: string;
}

/** Every recorded stack of the doors given, oldest version folder first. */
export function recordedStacks(doors: readonly DoorName[]): RecordedStack[] {
  if (!fs.existsSync(UPGRADE_DIR)) return [];
  return fs
    .readdirSync(UPGRADE_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap(({ name: version }) =>
      doors
        .map((door) => ({ version, door, dir: path.join(UPGRADE_DIR, version, door) }))
        .filter(({ dir }) => fs.existsSync(path.join(dir, STATE))),
    );
}

const configOf = (config: Record<string, string>) =>
  Object.fromEntries(Object.entries(config).map(([key, value]) => [key, { value }]));
const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, 'utf8')) as T;
const writeJson = (file: string, value: unknown) =>
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The transactions of an emulator data dir (its journal; none is compacted at these sizes). */
async function transactionsOf(dataDir: string): Promise<JournalOp[][]> {
  const { journal, data } = await Journal.open(dataDir, {
    compactAfterBytes: Infinity,
    warn: () => {},
  });
  await journal.close();
  if (data.snapshot) throw new Error(`${dataDir}: compacted, its transactions are gone`);
  return data.entries;
}

/** A data dir holding the seed only, and how many transactions that took. */
async function seededDataDir(seed: SeedName): Promise<{ dataDir: string; seeded: number }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-upgrade-data-'));
  await (await startEmulator({ port: 0, dataDir, seed })).close();
  return { dataDir, seeded: (await transactionsOf(dataDir)).length };
}

/** An emulator on a data dir of its own: an emulator handle whose close removes the folder. */
async function emulatorOn(dataDir: string, seed: SeedName): Promise<Emulator> {
  const emulator = await startEmulator({ port: 0, dataDir, seed, provisioningDelayMs: 500 });
  return {
    ...emulator,
    close: async () => {
      await emulator.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A fixture of a recorded stack: an emulator holding the seed and what the recorded run wrote
 * (same ids), the program copied from the recording, a fresh file backend whose stack `recorded`
 * imports the recorded state, and the provider's settings in the environment. Closing it closes
 * the emulator too.
 */
export async function replayedStack(stack: RecordedStack): Promise<CliFixture> {
  const recorded = readJson<EmulatorRecord>(path.join(stack.dir, EMULATOR));
  const { dataDir } = await seededDataDir(recorded.seed);
  const { journal } = await Journal.open(dataDir, { compactAfterBytes: Infinity, warn: () => {} });
  for (const transaction of recorded.transactions) await journal.append(transaction);
  await journal.close();
  const emulator = await emulatorOn(dataDir, recorded.seed);
  const { config } = readJson<Recording>(path.join(stack.dir, RECORDING));
  const f = await cliFixture({
    program: stack.dir,
    stackName: RECORDED_STACK,
    emulator,
    credentials: 'environment',
    config: configOf(config),
  });
  await f.stack.run(['stack', 'import', '--file', path.join(stack.dir, STATE)]);
  return {
    ...f,
    close: async () => {
      await f.close();
      await emulator.close();
    },
  };
}

/**
 * An exported state without where each resource was declared (`sourcePosition`, `stackTrace`:
 * paths of the recording machine's checkout, which the engine does not read back).
 */
function withoutSourcePositions(exported: string): string {
  const state = JSON.parse(exported) as { deployment?: { resources?: Record<string, unknown>[] } };
  for (const resource of state.deployment?.resources ?? []) {
    delete resource.sourcePosition;
    delete resource.stackTrace;
  }
  return `${JSON.stringify(state, null, 2)}\n`;
}

export interface RecordOptions {
  door: DoorName;
  /** The folder under test/upgrade/ to write. */
  version: string;
  /** What recorded it, as recording.json says. */
  recordedWith: string;
  /** The pulumi-svc package root whose build the program runs on (default this checkout). */
  packageRoot?: string;
}

/**
 * Runs the door's program once (`pulumi up` on a fresh stack `recorded`, the emulator seeded
 * `demo` on a data dir) with the package at `packageRoot`, and writes what a later version
 * replays to test/upgrade/<version>/<door>/. Refuses to write a state or emulator data that
 * holds the API key.
 */
export async function recordStack(options: RecordOptions): Promise<string> {
  const seed: SeedName = 'demo';
  const { dataDir, seeded } = await seededDataDir(seed);
  const out = path.join(UPGRADE_DIR, options.version, options.door);
  try {
    const emulator = await startEmulator({ port: 0, dataDir, seed, provisioningDelayMs: 500 });
    let state: string;
    let config: Record<string, string>;
    try {
      const f = await cliFixture({
        program: RECORDED_PROGRAMS[options.door],
        stackName: RECORDED_STACK,
        emulator,
        credentials: 'environment',
        nodeModules: path.join(options.packageRoot ?? PACKAGE_ROOT, 'node_modules'),
      });
      try {
        const [ticket] = (await f.client.call('Account', 'getOpenTickets', {
          mask: 'id',
        })) as { id: number }[];
        config = { 'upgrade:ticketId': String(ticket.id) };
        await f.stack.setConfig(configOf(config));
        await f.stack.up();
        state = withoutSourcePositions(await f.stack.capture(['stack', 'export']));
      } finally {
        await f.close();
      }
    } finally {
      await emulator.close();
    }
    const record: EmulatorRecord = {
      seed,
      transactions: (await transactionsOf(dataDir)).slice(seeded),
    };
    for (const [file, text] of [
      [STATE, state],
      [EMULATOR, JSON.stringify(record)],
    ]) {
      if (text.includes(emulator.credentials.apiKey)) {
        throw new Error(`${file} would hold the API key: not written`);
      }
    }
    fs.rmSync(out, { recursive: true, force: true });
    fs.cpSync(path.join(PROGRAMS, RECORDED_PROGRAMS[options.door]), out, { recursive: true });
    fs.writeFileSync(path.join(out, STATE), state);
    writeJson(path.join(out, EMULATOR), record);
    const pulumi = execFileSync(path.join(pulumiBinDir(), 'pulumi'), ['version'], {
      encoding: 'utf8',
    }).trim();
    const recording: Recording = { recordedWith: options.recordedWith, pulumi, config };
    writeJson(path.join(out, RECORDING), recording);
    return out;
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
