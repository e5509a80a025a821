import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../../emulator';
import { setTimeout as sleep } from 'node:timers/promises';
import { commandLine, livePids } from '../../scripts/processes';
import { cliFixture, type CliFixture, type CliFixtureOptions, type Emulator } from './cli';
import { PLUGIN_DIR } from './projects';

/**
 * The two front doors to the same kinds, as a parameter of the stack tests: the dynamic resources
 * (a TypeScript program on the classes of `pulumi-svc`, run by the Node.js language host, the
 * provider serialized into the state) and the provider plugin `pulumi-resource-svc` (a YAML
 * program, run by the YAML language host, on the plugin the project names in `plugins:`). A
 * door decides how a test's program is written, which type tokens its URNs carry, how the
 * creation token of a guest is seeded and which process is the provider; what the tests assert
 * (the emulator's objects, the state's ids) is the same for both.
 */

export type DoorName = 'dynamic' | 'plugin';

/**
 * The owner program (test/stack/programs/owner): guests (a name `a/server` puts `server` under
 * a component `a`), arguments over the base spec of every guest, resource options for every
 * guest, a DNS record `record`, a ticket update `note`, and more resources of any kind by name.
 * In the guests' arguments and the resources' properties a string `${name.output}` is an output
 * of another of them (YAML's own syntax). Through the dynamic door it is stack config of that
 * TypeScript program; through the plugin it is written as a YAML program.
 */
export interface OwnerProgram {
  guests?: string[];
  guest?: Record<string, unknown>;
  options?: Record<string, unknown>;
  record?: Record<string, unknown> | null;
  ticket?: Record<string, unknown> | null;
  resources?: Record<string, OwnerResource>;
}

/** A resource of the owner program besides its guests: `kind` as in `svc:index:<kind>`. */
export interface OwnerResource {
  kind: string;
  properties: Record<string, unknown>;
  options?: Record<string, unknown>;
}

/** Options of a fixture besides its program (the program's own config is the door's). */
export type DoorFixtureOptions = Omit<CliFixtureOptions, 'program' | 'inPlace'>;

export interface FrontDoor {
  readonly name: DoorName;
  /** The type token of a kind (`VirtualGuest`) in this door's URNs and state. */
  type(kind: string): string;
  /** What a guest's creation token is seeded with (`provenance`), from its full URN. */
  provenance(urn: string): string;
  /** Whether programs can put resources under component parents (YAML programs have none). */
  readonly components: boolean;
  /** Matches the command line of the provider process of a run. */
  readonly providerProcess: RegExp;
  /** A fixture of the owner program through this door. */
  owner(program?: OwnerProgram, options?: DoorFixtureOptions): Promise<CliFixture>;
  /** Changes the program of a fixture made by `owner`. */
  setOwner(f: CliFixture, program: OwnerProgram): Promise<void>;
}

/** Every key stated (what is not given at its default), so each call states the whole program. */
const withDefaults = (program: OwnerProgram): Required<OwnerProgram> => ({
  guests: ['server'],
  guest: {},
  options: {},
  record: null,
  ticket: null,
  resources: {},
  ...program,
});

/** The owner program's base guest (test/stack/programs/owner/index.ts). */
const BASE_GUEST = {
  domain: 'owner.example.com',
  datacenter: 'dal10',
  startCpus: 1,
  maxMemory: 1024,
  operatingSystemReferenceCode: 'UBUNTU_LATEST',
  tags: ['owner'],
};

/**
 * A guest's properties: the base spec under the program's own, where `datacenters` takes the
 * place of the base's `datacenter` (a guest gives one of the two).
 */
function guestProperties(guest: Record<string, unknown>): Record<string, unknown> {
  const { datacenter: _one, ...rest } = BASE_GUEST;
  return { ...('datacenters' in guest ? rest : BASE_GUEST), ...guest };
}

const ownerConfig = (program: OwnerProgram) =>
  Object.fromEntries(
    Object.entries(withDefaults(program)).map(([key, value]) => [
      `owner:${key}`,
      { value: JSON.stringify(value) },
    ]),
  );

const dynamic: FrontDoor = {
  name: 'dynamic',
  type: (kind) => `pulumi-nodejs:dynamic/svc:${kind}`,
  provenance: (urn) => `organization/${urn}`,
  components: true,
  providerProcess: /dynamic-provider/,
  owner: (program = {}, options = {}) =>
    cliFixture({
      program: 'owner',
      ...options,
      config: { ...ownerConfig(program), ...options.config },
    }),
  setOwner: (f, program) => f.stack.setConfig(ownerConfig(program)),
};

/**
 * The owner program as a YAML project on the plugin (JSON, which is YAML): the same resources,
 * names and options; its `ids` output lists the guests' ids.
 */
function ownerYaml(program: OwnerProgram): string {
  const { guests, guest, options, record, ticket, resources: more } = withDefaults(program);
  const resources: Record<string, object> = {};
  for (const name of guests) {
    if (name.includes('/')) throw new Error(`${name}: a YAML program has no component parents`);
    resources[name] = {
      type: 'svc:index:VirtualGuest',
      properties: guestProperties(guest),
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };
  }
  if (record) resources.record = { type: 'svc:index:DnsRecord', properties: record };
  if (ticket) resources.note = { type: 'svc:index:TicketUpdate', properties: ticket };
  for (const [name, { kind, properties, options: given }] of Object.entries(more))
    resources[name] = {
      type: `svc:index:${kind}`,
      properties,
      ...(given ? { options: given } : {}),
    };
  const project = {
    name: 'owner',
    runtime: 'yaml',
    plugins: { providers: [{ name: 'svc', path: PLUGIN_DIR }] },
    resources,
    outputs: { ids: guests.map((name) => `\${${name}.id}`) },
  };
  return `${JSON.stringify(project, null, 2)}\n`;
}

const plugin: FrontDoor = {
  name: 'plugin',
  type: (kind) => `svc:index:${kind}`,
  provenance: (urn) => `plugin/${urn}`,
  components: false,
  providerProcess: /provider\/plugin\/main\.js/,
  owner: async (program = {}, options = {}) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-owner-yaml-'));
    fs.writeFileSync(path.join(dir, 'Pulumi.yaml'), ownerYaml(program));
    const f = await cliFixture({ program: dir, inPlace: true, ...options });
    return {
      ...f,
      close: async () => {
        await f.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  },
  setOwner: async (f, program) =>
    fs.writeFileSync(path.join(f.dir, 'Pulumi.yaml'), ownerYaml(program)),
};

export const DOORS: Record<DoorName, FrontDoor> = { dynamic, plugin };

/**
 * The doors a test file runs through: both, or those `SVC_DOORS` names (`dynamic`, `plugin`,
 * comma-separated), to run one door's variants alone.
 */
export function frontDoors(): FrontDoor[] {
  const named = (process.env.SVC_DOORS ?? 'dynamic,plugin').split(',').map((s) => s.trim());
  return (Object.keys(DOORS) as DoorName[]).filter((n) => named.includes(n)).map((n) => DOORS[n]);
}

/** The URN of a resource of this door's type in a stack of the owner project. */
export const ownerUrn = (door: FrontDoor, stack: string, kind: string, name: string): string =>
  `urn:pulumi:${stack}::owner::${door.type(kind)}::${name}`;

/**
 * In a `describe`: fixtures of the owner program through `door`, each closed when the suite ends.
 */
export function ownerFixtures(door: FrontDoor) {
  const fixtures: CliFixture[] = [];
  after(() => Promise.all(fixtures.map((f) => f.close())));
  return async (program?: OwnerProgram, options?: DoorFixtureOptions): Promise<CliFixture> => {
    const f = await door.owner(program, options);
    fixtures.push(f);
    return f;
  };
}

/** `it` for the cases of a suite that a door runs: every case, or the keys `only` lists. */
export const casesOf =
  <K extends string>(only?: readonly K[]) =>
  (key: K, title: string, body: () => Promise<void>): void => {
    if (!only || only.includes(key)) it(title, body);
  };

/**
 * Waits at most `ms` for the provider processes of `f`'s runs to end (a killed CLI's provider
 * outlives it until it notices, and first hands back what it claimed); whether they all did.
 */
export async function providersEnded(door: FrontDoor, f: CliFixture, ms: number): Promise<boolean> {
  const providers = () =>
    livePids('SVC_FIXTURE', f.stack.env.SVC_FIXTURE).filter((pid) =>
      door.providerProcess.test(commandLine(pid)),
    );
  for (let waited = 0; waited < ms && providers().length > 0; waited += 200) await sleep(200);
  return providers().length === 0;
}

/**
 * A `describe` of one scenario run through each door in turn, the doors sharing one emulator
 * (its provisioning delay short, to keep the suite's wall time down).
 */
export function scenarioPerDoor(
  title: string,
  scenario: (door: FrontDoor, emulator: Emulator) => Promise<void>,
): void {
  describe(title, () => {
    let emulator: Emulator;
    before(
      async () =>
        (emulator = await startEmulator({ port: 0, seed: 'demo', provisioningDelayMs: 200 })),
    );
    after(() => emulator?.close());
    for (const door of frontDoors()) {
      it(`through the ${door.name} door`, { timeout: 600_000 }, () => scenario(door, emulator));
    }
  });
}
