import { chaosTests } from './chaos';
import { DOORS } from './front-door';

// The seeded chaos sequences of chaos.test.ts on the provider plugin (a YAML program), with the
// same invariants: `npm run bench -- chaos --door plugin` runs 50.
chaosTests(DOORS.plugin, [4, 5, 29]);
