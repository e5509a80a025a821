/**
 * What the serialized providers load by package name (`pulumi-svc/runtime`) in the provider
 * process. Keep these export names stable: states written by older versions call them.
 */
import { watchDynamicProviderEngine } from './engine';
import { Operation } from '../framework/operation';
import {
  LIFECYCLE,
  callWith,
  type LifecycleMethod,
  type RuntimeProvider,
} from '../framework/runtime-provider';
import { PROVIDERS, type ResourceKind } from '../kinds/index';

export { configure } from '../framework/connection';

watchDynamicProviderEngine();

/**
 * A kind's provider as the dynamic provider protocol calls it: each call is an operation of its
 * own (framework/operation.ts). The protocol carries neither a cancel nor a timeout, so its signal
 * never aborts and it has no deadline; a create's claims are its engine's once it answers.
 */
function served(kind: string, provider: RuntimeProvider): RuntimeProvider {
  const call =
    (method: LifecycleMethod) =>
    (...args: unknown[]) => {
      const op = new Operation(`${method} of a ${kind}`, { claims: method === 'create' });
      return op.run(() => callWith(provider, method, args, op)).finally(() => op.answered());
    };
  return Object.fromEntries(LIFECYCLE.map((m) => [m, call(m)])) as unknown as RuntimeProvider;
}

/** Every kind of the registry (kinds/index.ts), its credentials redacted and its answers encodable. */
export const providers = Object.fromEntries(
  Object.entries(PROVIDERS).map(([kind, provider]) => [kind, served(kind, provider)]),
) as Record<ResourceKind, RuntimeProvider>;
