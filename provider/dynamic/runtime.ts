/**
 * What the serialized providers load by package name (`pulumi-svc/runtime`) in the provider
 * process. Keep these export names stable: states written by older versions call them.
 */
import { KINDS, type ResourceKind } from '../kinds/index';
import { watchEngine } from '../framework/engine-watch';
import { redacting } from '../framework/redacting';
import type { RuntimeProvider } from '../framework/runtime-provider';
import { structSafe } from '../framework/struct-safe';

export { configure } from '../framework/connection';

watchEngine();

/** Every kind of the registry (kinds/index.ts), its credentials redacted and its answers encodable. */
export const providers = Object.fromEntries(
  Object.entries(KINDS).map(([kind, spec]) => [kind, redacting(structSafe(spec.provider))]),
) as Record<ResourceKind, RuntimeProvider>;
