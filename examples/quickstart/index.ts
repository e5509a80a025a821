// Entry point for `pulumi up` with the Node.js language host (Pulumi.yaml at the repo root).
// `npm run demo` runs the same program inline through the Automation API.
import { quickstart } from './program';

export = quickstart;
