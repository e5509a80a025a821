/**
 * What the serialized providers load by package name (`pulumi-svc/runtime`) in the provider
 * process. Keep these export names stable: states written by older versions call them.
 */
import { watchDynamicProviderEngine } from './engine';

export { configure } from '../framework/connection';

watchDynamicProviderEngine();

/** Every kind of the registry (kinds/index.ts), its credentials redacted and its answers encodable. */
export { PROVIDERS as providers } from '../kinds/index';
