import { chaosTests } from './chaos';
import { DOORS } from './front-door';

// A small fixed set of the seeded chaos sequences (test/stack/chaos.ts) on the dynamic resources;
// chaos-plugin.test.ts runs the same seeds on the plugin. `npm run bench -- chaos` runs 50. A
// sequence's steps follow from its seed and the population, so a member added to the population
// changes them: the seeds are then chosen again, as few steps as cover the suite's first test
// (every kind of the population declared; members added, changed in place, replaced and removed;
// kills during an up and a destroy; both kinds of full datacenter).
chaosTests(DOORS.dynamic, [4, 5, 29]);
