/**
 * What the serialized providers load by package name (`pulumi-svc/runtime`) in the provider
 * process. Keep these export names stable: states written by older versions call them.
 */
import { KINDS, type ResourceKind } from '../kinds';
import { watchEngine } from './engine-watch';
import { redacting } from './redacting';
import type { RuntimeProvider } from './runtime-provider';
import { structSafe } from './struct-safe';

export { configure } from './connection';

watchEngine();

/** Every kind of the registry (kinds.ts), its credentials redacted and its answers encodable. */
export const providers = Object.fromEntries(
  Object.entries(KINDS).map(([kind, spec]) => [kind, redacting(structSafe(spec.provider))]),
) as Record<ResourceKind, RuntimeProvider>;
