import { parseArgs } from 'node:util';
import { describeFailure, runSequence, type ChaosResult } from '../test/stack/chaos';
import { DOORS, type DoorName } from '../test/stack/front-door';
import { printResult, printTable } from './support/report';

const USAGE = `npm run bench -- chaos [--door dynamic|plugin] [--sequences 50] [--seed 1]

Seeded random sequences of up, input changes, --replace, refresh, destroy and SIGKILLs of the
CLI, through the Pulumi CLI, against an emulator injecting slow commits past the client timeout,
lost responses, 5xx before and after the commit, resets, the rate limit and full datacenters
(test/stack/chaos.ts; some programs declare datacenters to fall back on), on the dynamic
resources (a TypeScript program, the default) or the plugin (a YAML program). Beside two guests
and a DNS record, each sequence declares members of the billed kinds (a VLAN, a dedicated host,
a security group bound to the guests, a placement group, a bare metal server, block and file volumes authorized to a
guest, an image template) and adds, changes in place, replaces and removes them as it goes
(test/stack/chaos-population.ts). Prints one row per sequence, the seeds and steps of any that
broke an invariant, and the totals as its last line (one JSON object; \`kinds\`: those declared).`;

/** See USAGE. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sequences: { type: 'string' },
      seed: { type: 'string' },
      door: { type: 'string', default: 'dynamic' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!Object.hasOwn(DOORS, values.door)) throw new Error(`--door: dynamic or plugin`);
  const door = DOORS[values.door as DoorName];
  const sequences = Number(values.sequences ?? 50);
  const first = Number(values.seed ?? 1);
  const results: ChaosResult[] = [];
  for (let seed = first; seed < first + sequences; seed++) {
    const started = Date.now();
    const result = await runSequence(seed, { door, log: (line) => console.log(line) });
    results.push(result);
    console.log(
      `seed ${seed}: ${result.steps.length} steps, ${result.faultsInjected} faults, ${result.extraUps} settling up(s), ${result.problems.length === 0 ? 'ok' : 'BROKEN'} (${Math.round((Date.now() - started) / 1000)} s)`,
    );
    if (result.problems.length > 0) console.log(describeFailure(result));
  }
  const sum = (key: keyof ChaosResult) =>
    results.reduce((total, r) => total + (r[key] as number), 0);
  printTable(
    results.map((r) => ({
      seed: r.seed,
      operations: r.operations,
      faults: r.faultsInjected,
      duplicates: r.duplicates,
      orphans: r.orphans,
      wrongDeletes: r.wrongDeletes,
      lostFromState: r.lostFromState,
      deadInState: r.deadInState,
      extraUps: r.extraUps,
      userDecisions: r.userDecisions,
      checkpointsRestored: r.checkpointsRestored,
    })),
  );
  printResult({
    bench: 'chaos',
    door: door.name,
    sequences: results.length,
    operations: sum('operations'),
    faultsInjected: sum('faultsInjected'),
    duplicates: sum('duplicates'),
    orphans: sum('orphans'),
    wrongDeletes: sum('wrongDeletes'),
    lostFromState: sum('lostFromState'),
    deadInState: sum('deadInState'),
    sharedIds: sum('sharedIds'),
    maxExtraUps: Math.max(0, ...results.map((r) => r.extraUps)),
    userDecisions: sum('userDecisions'),
    checkpointsRestored: sum('checkpointsRestored'),
    kinds: [...new Set(results.flatMap((r) => r.kinds))].sort(),
    broken: results.filter((r) => r.problems.length > 0).map((r) => r.seed),
  });
}

main().catch((err: Error) => {
  console.error(err);
  process.exit(1);
});
