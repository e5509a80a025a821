import { DOORS } from './front-door';
import { ownershipTests, type OwnershipScenario } from './ownership';

// The ownership scenarios (test/stack/ownership.ts) on the provider plugin: the owner program
// written in YAML. A representative subset, to keep `npm test` short: --replace and
// replaceOnChanges (the plugin's detailed diff), an order committed after the client gave up
// and one answered 502 after its commit, two backends with the same URNs (the creation token
// carries the backend), a failure after the order (the id kept through the protocol's
// ErrorResourceInitFailed), a refresh with another account's credentials (provider config from
// the state and from the program), a destroy while the guest provisions, a claim landing after
// its CLI was killed, and deleteBeforeReplace
// with --target (a replace decided by the plugin's diff). Left to the dynamic run, where they
// exercise the same kind code: the DNS record and ticket update after a lost write (6, 6b), and
// protect / retainOnDelete, which are the engine's alone.
const ON_THE_PLUGIN: OwnershipScenario[] = ['1', '2', '3', '4', '5', '7', '8', 'dbr'];

ownershipTests(DOORS.plugin, ON_THE_PLUGIN);
