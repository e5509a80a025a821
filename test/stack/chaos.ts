import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as path from 'node:path';
import type { FaultOptions, InjectedFault, OnceFault } from '../../emulator/faults';
import { mulberry32 } from '../../emulator/prng';
import { creationToken } from '../../provider/framework/creation-token';
import { OWNED_TAG } from '../../provider/kinds/virtual-guest/provenance';
import {
  VirtualGuestManager,
  tagNames,
  type DnsResourceRecord,
  type DnsZone,
  type VirtualGuest,
} from '../../provider/managers';
import { killTree, livePids } from '../../scripts/processes';
import { DOORS, ownerUrn, providersEnded, type FrontDoor, type OwnerProgram } from './front-door';
import { checkpointLost, restoreFromHistory } from './lost-checkpoint';
import {
  POPULATION,
  applyMutation,
  baseline,
  cancelRefused,
  checkAfterDestroy,
  checkMembers,
  declare,
  describeMutation,
  handMade as makeByHand,
  mutate,
  noProblems,
  writesOf,
  type Context,
  type Mutation,
  type Tally,
  type Version,
} from './chaos-population';

/**
 * Seeded, randomized sequences of Pulumi operations on the owner program (two guests, a DNS
 * record, and members of every billed kind the sequence adds, changes in place, replaces and
 * removes as it goes: chaos-population.ts), through either front door (test/stack/front-door.ts),
 * while the emulator injects faults around the commit of writes, with the CLI
 * killed (SIGKILL) at random moments. After each sequence the stack settles (at most two more
 * `pulumi up --refresh`), then the invariants of the ownership protocol are checked against the
 * emulator's objects and the state:
 *
 * - every guest carrying this stack's provenance is in the state (else: an orphan, billed);
 * - no resource has more than one guest (a duplicate);
 * - an id that was once in the state and is still live is in the state (else: lost from state);
 * - every id in the state is live, and no two resources share one;
 * - nothing the stack does not own (look-alike guests, another backend's guest of the same name,
 *   another account's guests, an identical DNS record made by hand) was changed or deleted;
 * - the same for each member's kind, from what the emulator holds of it: no more live objects
 *   than declared, none outside the state, and its look-alike made by hand untouched.
 */

const NAMES = ['g0', 'g1'];
const RECORD = { zoneName: 'example.com', host: 'chaos', type: 'A', data: '10.7.7.7' };
const DOMAIN = 'owner.example.com';
/**
 * How long a killed CLI's provider may take to end: it notices within 2 s, then waits for the
 * claims of its unanswered creates to land (at most the sequence's 10 s outcome window).
 */
const PROVIDER_END_MS = 20_000;

export type Operation =
  | 'up'
  | 'change-in-place'
  | 'change-ordered'
  | 'replace'
  | 'refresh'
  | 'destroy'
  | 'kill-up'
  | 'kill-destroy';

const OPERATIONS: Operation[] = [
  'up',
  'up',
  'change-in-place',
  'change-ordered',
  'replace',
  'refresh',
  'destroy',
  'kill-up',
  'kill-up',
  'kill-destroy',
];

/** The invariants' counts (Tally: duplicates, orphans, wrong deletes, ids lost, dead or shared). */
export interface ChaosResult extends Tally {
  seed: number;
  /** The front door the sequence went through. */
  door: string;
  /** What ran, in order, with the faults of each step: printed when a sequence fails. */
  steps: string[];
  operations: number;
  faultsInjected: number;
  /** `up` runs the settling needed after the sequence (at most 2; 3 = did not settle). */
  extraUps: number;
  /** Leftovers the provider refused to adopt, cancelled by hand as its message suggests. */
  userDecisions: number;
  /**
   * Checkpoints found lost or empty after a step (a CLI killed while writing it), restored from
   * the backend's history as README's "A lost checkpoint" says.
   */
  checkpointsRestored: number;
  /** The kinds of the members the sequence declared at some point. */
  kinds: string[];
}

interface Program {
  cpus: number;
  notes: string;
  /** Datacenters to try in turn instead of `datacenter: dal10` (the base spec's). */
  datacenters?: string[];
  /** The members declared, and how each stands. */
  members: Map<string, Version>;
}

const ownerProgram = (
  { cpus, notes, datacenters, members }: Program,
  context?: Context,
): OwnerProgram => {
  // Until the hand-made guests the image template captures exist, the members are left out.
  const { resources, guest } = context ? declare(members, context) : { resources: {}, guest: {} };
  return {
    guests: NAMES,
    guest: {
      startCpus: cpus,
      notes,
      tags: ['owner'],
      ...(datacenters ? { datacenters } : {}),
      ...guest,
    },
    record: RECORD,
    resources,
  };
};

/** The alternatives a sequence's program may declare; dal10 is where guests are otherwise. */
const FALLBACK = ['dal10', 'dal12'];

const WRITE_TARGETS: [string, string][] = [
  ['Virtual_Guest', 'createObject'],
  ['Virtual_Guest', 'createObject'],
  ['Virtual_Guest', 'setTags'],
  ['Virtual_Guest', 'editObject'],
  ['Virtual_Guest', 'deleteObject'],
  ['Virtual_Guest', 'getObject'],
  ['Dns_Domain_ResourceRecord', 'createObject'],
  ['Dns_Domain_ResourceRecord', 'deleteObject'],
];
const ONCE_KINDS: InjectedFault[] = [
  'slow-commit',
  'error-after-commit',
  'lose-response',
  'drop',
  'http-500',
  'rate-limit',
];

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)];

/** Faults for one step: a targeted fault on a write (or read) most of the time, light noise often. */
function faultsFor(random: Random): FaultOptions {
  const once: OnceFault[] = [];
  for (let n = random() < 0.8 ? 1 + Math.floor(random() * 3) : 0; n > 0; n--) {
    const [service, method] = pick(random, WRITE_TARGETS);
    once.push({ service, method, fault: pick(random, ONCE_KINDS), delayMs: 3000 });
  }
  const noisy = random() < 0.5;
  return {
    seed: Math.floor(random() * 2 ** 31),
    http500Rate: noisy ? 0.03 : 0,
    dropRate: noisy ? 0.03 : 0,
    loseResponseRate: noisy ? 0.04 : 0,
    slowCommitRate: noisy ? 0.04 : 0,
    slowCommitMs: 3000,
    errorAfterCommitRate: noisy ? 0.04 : 0,
    rateLimitPerSecond: random() < 0.15 ? 15 : null,
    once,
  };
}

function describeFaults(faults: FaultOptions, full?: string): string {
  const once = (Array.isArray(faults.once) ? faults.once : []).map(
    (o) =>
      `${o.fault}${o.fault === 'error-after-commit' && o.status ? ` ${o.status}` : ''}@${o.service}.${o.method}`,
  );
  const noise = faults.http500Rate ? 'noise' : '';
  const limit = faults.rateLimitPerSecond ? `limit ${faults.rateLimitPerSecond}/s` : '';
  const room = full ? `${full} full` : '';
  return [...once, noise, limit, room].filter(Boolean).join(', ') || 'no faults';
}

export interface PlannedStep {
  operation: Operation;
  faults: FaultOptions;
  /** kill-*: when the CLI is killed (ms after it started). */
  killAtMs?: number;
  /** kill-up: whether the ordered fields change first. */
  changeFirst?: boolean;
  /** replace: which guest. */
  target?: string;
  /** A datacenter with no room during the step (the API's capacity fault for every order). */
  fullDatacenter?: string;
  /** A change to the members the program declares, made before the step's operation. */
  mutation?: Mutation;
}

export interface Plan {
  steps: PlannedStep[];
  /** The program declares `datacenters` (FALLBACK) instead of `datacenter`. */
  fallback: boolean;
  /** The members the program declares at first (chaos-population.ts). */
  population: string[];
}

/**
 * One-shot faults on the writes of the members declared: none to two; an error after the commit
 * is a 502 (a proxy's) or a 500.
 */
function memberFaults(
  random: Random,
  statuses: Random,
  declared: ReadonlySet<string>,
): OnceFault[] {
  const writes = writesOf(declared);
  if (writes.length === 0) return [];
  return Array.from({ length: Math.floor(random() * 3) }, () => {
    const [service, method] = pick(random, writes);
    const fault = pick(random, ONCE_KINDS);
    const status = statuses() < 0.5 ? 502 : 500;
    return { service, method, fault, delayMs: 3000, status };
  });
}

/**
 * The steps of a sequence: everything random is drawn here, from the seed alone. Where the
 * datacenters are full, and whether the program falls back, come from a generator of their own,
 * and so do the members, their mutations and their faults (and the status of their errors after
 * the commit), so the operations and the guests' faults of a seed stay those it had before they
 * were added.
 */
export function plan(seed: number, steps?: number): Plan {
  const random = mulberry32(seed);
  const rooms = mulberry32(seed ^ 0x5eed_dc);
  const kinds = mulberry32(seed ^ 0xb111_ed);
  const statuses = mulberry32(seed ^ 0x502);
  const length = steps ?? 3 + Math.floor(random() * 4);
  const population = POPULATION.filter(() => kinds() < 0.5).map((m) => m.name);
  const declared = new Set(population);
  return {
    fallback: rooms() < 0.6,
    population,
    steps: Array.from({ length }, () => {
      const operation = pick(random, OPERATIONS);
      const faults = faultsFor(random);
      const mutation = kinds() < 0.75 ? mutate(kinds, declared) : undefined;
      const once = [...(faults.once as OnceFault[]), ...memberFaults(kinds, statuses, declared)];
      return {
        operation,
        faults: { ...faults, once },
        killAtMs: 500 + Math.floor(random() * 9500),
        changeFirst: random() < 0.5,
        target: pick(random, NAMES),
        fullDatacenter: rooms() < 0.3 ? pick(rooms, FALLBACK) : undefined,
        mutation,
      };
    }),
  };
}

interface Snapshot {
  id: number;
  text: string;
}

const guestText = (g: VirtualGuest) =>
  JSON.stringify([g.hostname, g.domain, g.notes ?? '', g.startCpus, tagNames(g).sort()]);

/** Runs one sequence; never throws for what the stack does (that is what it measures). */
export async function runSequence(
  seed: number,
  options: { steps?: number; log?: (line: string) => void; door?: FrontDoor } = {},
): Promise<ChaosResult> {
  const { steps, fallback, population } = plan(seed, options.steps);
  const log = options.log ?? (() => undefined);
  const door = options.door ?? DOORS.dynamic;
  const result: ChaosResult = {
    seed,
    door: door.name,
    steps: [],
    operations: 0,
    faultsInjected: 0,
    ...noProblems(),
    extraUps: 0,
    userDecisions: 0,
    checkpointsRestored: 0,
    kinds: [],
  };
  const members = new Map(population.map((name) => [name, { changes: 0, flipped: false }]));
  const program: Program = {
    cpus: 1,
    notes: 'n0',
    datacenters: fallback ? FALLBACK : undefined,
    members,
  };
  const f = await door.owner(ownerProgram(program), {
    provisioningDelayMs: 1500,
    config: { 'svc:timeout': { value: '2' }, 'svc:outcomeWindow': { value: '10' } },
  });
  // A bare metal server is provisioned in four stages: about 1 s in all.
  f.emulator.settings.hardwareStageMs = 250;
  const kinds = new Set<string>();
  const declaredKinds = () => {
    for (const name of members.keys()) kinds.add(POPULATION.find((m) => m.name === name)!.kind);
  };
  const step = (line: string) => {
    result.steps.push(line);
    log(`  [${door.name} seed ${seed}] ${line}`);
  };
  /** What the creation token of guest `name` of this stack is seeded with, through this door. */
  const provenance = (name: string) =>
    door.provenance(ownerUrn(door, 'test', 'VirtualGuest', name));
  try {
    const guests = new VirtualGuestManager(f.client);
    const backend = f.stack.env.PULUMI_BACKEND_URL;
    const tokenOf = (name: string) => creationToken({ provenance: provenance(name) }, backend);
    const tokens = new Map(NAMES.map((name) => [tokenOf(name), name]));

    // Things the stack does not own and must leave alone.
    const lookAlike = await guests.createInstance({
      hostname: 'g0-twin',
      domain: DOMAIN,
      cpus: 1,
      memory: 1024,
      os: 'UBUNTU_LATEST',
      datacenter: 'dal10',
      tags: ['owner'],
    });
    const otherBackend = await guests.createInstance({
      hostname: 'g0-elsewhere',
      domain: DOMAIN,
      cpus: 1,
      memory: 1024,
      os: 'UBUNTU_LATEST',
      datacenter: 'dal10',
      tags: ['owner', creationToken({ provenance: `organization/x` }, 'file:///elsewhere')],
    });
    const unfinishedElsewhere = await guests.createInstance({
      hostname: 'g1-elsewhere',
      domain: DOMAIN,
      cpus: 1,
      memory: 1024,
      os: 'UBUNTU_LATEST',
      datacenter: 'dal10',
      tags: ['owner', creationToken({ provenance: provenance('g1') }, 'file:///another/backend')],
    });
    await guests.setTags(otherBackend.id, [
      ...tagNames(await guests.getInstance(otherBackend.id, 'id,tagReferences.tag.name')),
      OWNED_TAG,
    ]);
    // What the image template captures, and each member's look-alike (chaos-population.ts).
    const context = await makeByHand(f.client);
    const before = await baseline(f.client);
    const [zone] = (await f.client.call('Dns_Domain', 'getByDomainName', {
      args: ['example.com'],
      mask: 'id',
    })) as DnsZone[];
    const handMade = (await f.client.call('Dns_Domain_ResourceRecord', 'createObject', {
      args: [
        { host: RECORD.host, type: RECORD.type, data: RECORD.data, ttl: 900, domainId: zone.id },
      ],
    })) as DnsResourceRecord;
    const otherAccount = f.emulator.accounts.other.username;
    const foreignBefore = JSON.stringify(f.emulator.objects(otherAccount).virtualGuests);
    const decoys = async (): Promise<Snapshot[]> => {
      const all = (await f.client.call('Account', 'getVirtualGuests', {
        mask: 'id,hostname,domain,notes,startCpus,tagReferences.tag.name',
      })) as VirtualGuest[];
      return [lookAlike.id, otherBackend.id, unfinishedElsewhere.id, ...context.sources].map(
        (id) => {
          const g = all.find((x) => x.id === id);
          return { id, text: g ? guestText(g) : 'gone' };
        },
      );
    };
    const decoysBefore = await decoys();

    const seen = new Set<string>();
    const seenOf = new Map(POPULATION.map((m) => [m.kind, new Set<string>()]));
    const stateIds = async () => {
      const resources = await f.stack.resources();
      const of = (type: string) =>
        resources.filter((r) => r.type.endsWith(`:${type}`) && r.id).map((r) => r.id!);
      const guestIds = of('VirtualGuest');
      for (const id of guestIds) seen.add(id);
      for (const [kind, ids] of seenOf) for (const id of of(kind)) ids.add(id);
      return { guestIds, recordIds: of('DnsRecord'), of };
    };
    const marker = f.stack.env.SVC_FIXTURE;
    const reap = async () => {
      // A killed CLI's provider and language host stop on their own (the provider watches its
      // engine, hands back the claims of its unanswered creates, and reaps what its run started).
      // Whatever is still left after the wait is killed, so one sequence's leftovers cannot
      // disturb the next.
      await providersEnded(door, f, PROVIDER_END_MS);
      for (const pid of livePids('SVC_FIXTURE', marker)) killTree(pid);
      await f.stack.run(['cancel', '--yes']).catch(() => undefined);
    };
    const attempt = async (args: string[]) => {
      result.operations += 1;
      try {
        await f.stack.run(args);
        return 'ok';
      } catch (err) {
        return `failed (${whyFailed((err as Error).message)})`;
      }
    };
    const killed = async (args: string[], at: number) => {
      result.operations += 1;
      const run = f.stack.spawn(args);
      const outcome = await Promise.race([
        run.done.then(() => 'finished'),
        sleep(at).then(() => 'kill'),
      ]);
      if (outcome === 'kill') {
        process.kill(run.child.pid!, 'SIGKILL');
        await run.done;
      }
      await reap();
      return outcome === 'kill' ? `killed after ${at} ms` : 'finished before the kill';
    };
    const setProgram = () => door.setOwner(f, ownerProgram(program, context));
    await setProgram();
    declaredKinds();

    for (const [i, step_] of steps.entries()) {
      const {
        operation,
        faults,
        killAtMs = 0,
        changeFirst,
        target,
        fullDatacenter,
        mutation,
      } = step_;
      if (mutation) {
        applyMutation(members, mutation);
        declaredKinds();
        await setProgram();
      }
      f.emulator.setFaults(null);
      f.emulator.setFaults(faults);
      f.emulator.settings.datacenterCapacity = fullDatacenter ? { [fullDatacenter]: 0 } : undefined;
      let outcome: string;
      switch (operation) {
        case 'change-in-place':
          program.notes = `n${i + 1}`;
          await setProgram();
          outcome = await attempt(['up', '--yes', '--non-interactive', '--skip-preview']);
          break;
        case 'change-ordered':
          program.cpus = program.cpus === 1 ? 2 : 1;
          await setProgram();
          outcome = await attempt(['up', '--yes', '--non-interactive', '--skip-preview']);
          break;
        case 'replace': {
          const urn = (await f.stack.resources()).find((r) => r.urn.endsWith(`::${target}`))?.urn;
          outcome = await attempt([
            'up',
            '--yes',
            '--non-interactive',
            '--skip-preview',
            ...(urn ? ['--replace', urn] : []),
          ]);
          break;
        }
        case 'refresh':
          outcome = await attempt(['refresh', '--yes', '--non-interactive', '--skip-preview']);
          break;
        case 'destroy':
          outcome = await attempt(['destroy', '--yes', '--non-interactive', '--skip-preview']);
          break;
        case 'kill-up':
          if (changeFirst) {
            program.cpus = program.cpus === 1 ? 2 : 1;
            await setProgram();
          }
          outcome = await killed(['up', '--yes', '--non-interactive', '--skip-preview'], killAtMs);
          break;
        case 'kill-destroy':
          outcome = await killed(
            ['destroy', '--yes', '--non-interactive', '--skip-preview'],
            killAtMs,
          );
          break;
        default:
          outcome = await attempt(['up', '--yes', '--non-interactive', '--skip-preview']);
      }
      const changed = mutation ? `${describeMutation(mutation)}; ` : '';
      step(
        `${changed}${operation} (cpus ${program.cpus}, notes ${program.notes}; ${describeFaults(faults, fullDatacenter)}): ${outcome}`,
      );
      if (await checkpointLost(f.stack)) {
        await reap();
        const restored = await restoreFromHistory(f.stack, 'owner');
        result.checkpointsRestored += 1;
        step(
          `checkpoint lost: ${restored ? `imported ${path.basename(restored)}` : 'no history, a new stack'}`,
        );
      }
      await stateIds();
    }

    // Settle: no faults, at most two more `up` runs.
    const stats = f.emulator.stats().faultsInjected;
    result.faultsInjected = Object.entries(stats)
      .filter(([kind]) => kind !== 'latency')
      .reduce((sum, [, n]) => sum + n, 0);
    f.emulator.setFaults(null);
    f.emulator.settings.datacenterCapacity = undefined;
    await reap();
    for (;;) {
      if (result.extraUps === 2) {
        result.extraUps = 3;
        result.problems.push('did not settle within two `up` runs');
        break;
      }
      result.extraUps += 1;
      result.operations += 1;
      try {
        await f.stack.run(['up', '--yes', '--non-interactive', '--skip-preview', '--refresh']);
        step(`settle up ${result.extraUps}: ok`);
        break;
      } catch (err) {
        const message = (err as Error).message;
        // The provider names each leftover it will not adopt (its ordered fields changed since
        // the unfinished create; one per resource, a guest or a member): the user cancels them,
        // as the messages suggest.
        const leftovers = [
          ...new Set(
            [...message.matchAll(/cancel guest (\d+) if it is not wanted/g)].map((m) => m[1]),
          ),
        ];
        for (const id of leftovers) {
          result.userDecisions += 1;
          await guests.cancelInstance(Number(id));
        }
        const refused = await cancelRefused(f.client, message);
        result.userDecisions += refused.length;
        const cancelled = [...leftovers.map((id) => `guest ${id}`), ...refused];
        step(
          `settle up ${result.extraUps}: failed (${whyFailed(message)})${cancelled.length > 0 ? `; cancelled leftover(s) ${cancelled.join(', ')}` : ''}`,
        );
      }
    }

    // The invariants.
    const { guestIds, recordIds, of } = await stateIds();
    await checkMembers(f.client, before, of, members, seenOf, result);
    const live = (
      (await f.client.call('Account', 'getVirtualGuests', {
        mask: 'id,hostname,domain,notes,startCpus,tagReferences.tag.name',
      })) as VirtualGuest[]
    ).filter((g) => tagNames(g).some((tag) => tokens.has(tag)));
    const liveIds = new Set(live.map((g) => String(g.id)));
    const inState = new Set(guestIds);
    for (const g of live) {
      if (!inState.has(String(g.id))) {
        result.orphans += 1;
        result.problems.push(
          `orphan: guest ${g.id} (${tagNames(g).join(' ')}) is not in the state`,
        );
      }
    }
    for (const [token, name] of tokens) {
      const count = live.filter((g) => tagNames(g).includes(token)).length;
      if (count > 1) {
        result.duplicates += count - 1;
        result.problems.push(`duplicate: ${count} live guests for ${name}`);
      }
    }
    for (const id of seen) {
      if (!inState.has(id) && liveIds.has(id)) {
        result.lostFromState += 1;
        result.problems.push(`lost from state: guest ${id} is live but no longer in the state`);
      }
    }
    const allLive = new Set(
      ((await f.client.call('Account', 'getVirtualGuests', { mask: 'id' })) as VirtualGuest[]).map(
        (g) => String(g.id),
      ),
    );
    for (const id of guestIds) {
      if (!allLive.has(id)) {
        result.deadInState += 1;
        result.problems.push(`dead in state: guest ${id}`);
      }
    }
    result.sharedIds += guestIds.length - inState.size;
    const records = (await f.client.call('Dns_Domain', 'getResourceRecords', {
      id: zone.id,
      mask: 'id',
    })) as DnsResourceRecord[];
    for (const id of recordIds) {
      if (!records.some((r) => String(r.id) === id)) {
        result.deadInState += 1;
        result.problems.push(`dead in state: record ${id}`);
      }
    }

    // Destroy, then nothing of the stack may be left, and nothing else touched.
    result.operations += 1;
    await f.stack.destroy();
    const left = (
      (await f.client.call('Account', 'getVirtualGuests', {
        mask: 'id,tagReferences.tag.name',
      })) as VirtualGuest[]
    ).filter((g) => tagNames(g).some((tag) => tokens.has(tag)));
    for (const g of left) {
      result.orphans += 1;
      result.problems.push(`guest ${g.id} carries this stack's token after destroy`);
    }
    const after = await decoys();
    decoysBefore.forEach((before, i) => {
      if (after[i].text !== before.text) {
        result.wrongDeletes += 1;
        result.problems.push(
          `not the stack's: guest ${before.id} was ${after[i].text === 'gone' ? 'deleted' : 'changed'}`,
        );
      }
    });
    const remaining = (await f.client.call('Dns_Domain', 'getResourceRecords', {
      id: zone.id,
      mask: 'id',
    })) as DnsResourceRecord[];
    if (!remaining.some((r) => r.id === handMade.id)) {
      result.wrongDeletes += 1;
      result.problems.push(`not the stack's: record ${handMade.id} was deleted`);
    }
    if (JSON.stringify(f.emulator.objects(otherAccount).virtualGuests) !== foreignBefore) {
      result.wrongDeletes += 1;
      result.problems.push("another account's guests changed");
    }
    await checkAfterDestroy(f.client, before, result);
  } catch (err) {
    result.problems.push(`the harness failed: ${(err as Error).message.slice(0, 400)}`);
  } finally {
    result.kinds = [...kinds];
    await f.close();
  }
  return result;
}

/** A failed CLI run's reason, for its step: the resource's error, not the run's `update failed`. */
function whyFailed(output: string): string {
  const errors = output.match(/error: (.*)/g) ?? [];
  const cause = errors.find((line) => !/error: update failed/.test(line)) ?? errors.pop();
  return (cause ?? 'failed').slice(0, 240);
}

/** How a failed sequence is reported: its seed and its steps. */
export function describeFailure(result: ChaosResult): string {
  return [
    `chaos sequence with seed ${result.seed} broke the ownership invariants:`,
    ...result.problems.map((p) => `  - ${p}`),
    'steps:',
    ...result.steps.map((s) => `  ${s}`),
    `rerun: npm run bench -- chaos --door ${result.door} --seed ${result.seed} --sequences 1`,
  ].join('\n');
}

/**
 * The chaos sequences of `seeds` as tests through `door` (chaos.test.ts, chaos-plugin.test.ts):
 * between them they must kill the CLI during an up and a destroy, replace a guest with --replace
 * and by an ordered change, and destroy, all under faults around the commit of writes; and
 * declare every member of the population, and add, change in place, replace and remove members.
 */
export function chaosTests(door: FrontDoor, seeds: readonly number[]): void {
  describe(`chaos: seeded random operations under faults through the Pulumi CLI (${door.name})`, () => {
    it('the fixed seeds cover kills, replacements, destroys and full datacenters', () => {
      const plans = seeds.map((seed) => plan(seed));
      const operations = new Set(plans.flatMap((p) => p.steps.map((s) => s.operation)));
      for (const op of ['kill-up', 'kill-destroy', 'replace', 'change-ordered', 'destroy'] as const)
        assert.ok(operations.has(op), op);
      const full = (p: Plan) => p.steps.some((s) => s.fullDatacenter === 'dal10');
      assert.ok(
        plans.some((p) => p.fallback && full(p)),
        'dal10 full under datacenters',
      );
      assert.ok(
        plans.some((p) => !p.fallback && full(p)),
        'dal10 full under datacenter',
      );
      const mutations = plans.flatMap((p) => p.steps.flatMap((s) => s.mutation ?? []));
      for (const change of ['add', 'in-place', 'replace', 'remove'] as const)
        assert.ok(
          mutations.some((m) => m.change === change),
          `a member ${change}`,
        );
      const declared = new Set([
        ...plans.flatMap((p) => p.population),
        ...mutations.map((m) => m.member),
      ]);
      assert.deepEqual(
        POPULATION.filter((m) => !declared.has(m.name)).map((m) => m.kind),
        [],
        'every kind declared',
      );
    });

    for (const seed of seeds) {
      it(`seed ${seed}: no duplicate, no orphan, no id lost, nothing else touched`, async () => {
        const result = await runSequence(seed, { door });
        assert.deepEqual(result.problems, [], describeFailure(result));
        assert.ok(result.extraUps <= 2);
        assert.ok(result.faultsInjected > 0, 'faults were injected');
      });
    }
  });
}
