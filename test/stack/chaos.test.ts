import { chaosTests } from './chaos';
import { DOORS } from './front-door';

// A small fixed set of the seeded chaos sequences (test/stack/chaos.ts) on the dynamic resources;
// chaos-plugin.test.ts runs the same seeds on the plugin. `npm run bench -- chaos` runs 50. Seed
// 28 once ordered a second guest: a claim that landed after its CLI was killed. Between them the
// seeds declare every billed kind of the population (chaos-population.ts) and add, change, replace
// and remove members (the suite's first test checks it).
chaosTests(DOORS.dynamic, [4, 5, 28]);
