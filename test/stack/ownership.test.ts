import { DOORS } from './front-door';
import { ownershipTests } from './ownership';

// Every ownership scenario (test/stack/ownership.ts) on the dynamic resources: a TypeScript
// program on test/stack/programs/owner. ownership-plugin.test.ts runs them on the plugin.
ownershipTests(DOORS.dynamic);
