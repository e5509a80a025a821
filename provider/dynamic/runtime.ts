/**
 * What the serialized providers load by package name (`pulumi-svc/runtime`) in the provider
 * process. Keep these export names stable: states written by older versions call them.
 */
import { watchEngine } from '../framework/engine-watch';

export { configure } from '../framework/connection';

watchEngine();

/** Every kind of the registry (kinds/index.ts), its credentials redacted and its answers encodable. */
export { PROVIDERS as providers } from '../kinds/index';
