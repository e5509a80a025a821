import type * as pulumi from '@pulumi/pulumi';
import type { Bag } from './fields';

/** What every kind implements: the whole lifecycle (every resource can be read back and updated). */
export interface RuntimeProvider {
  check(olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Bag): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Bag): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Bag): Promise<void>;
}

export type LifecycleMethod = keyof RuntimeProvider;

/** The lifecycle's methods, listed once. */
export const LIFECYCLE = [
  'check',
  'diff',
  'create',
  'read',
  'update',
  'delete',
] as const satisfies readonly LifecycleMethod[];

/**
 * The provider with every lifecycle call passed through `wrap`, which runs it (`call`) and may
 * change its answer or its error: how a concern is added to every method at once.
 */
export function around(
  provider: RuntimeProvider,
  wrap: (method: LifecycleMethod, call: () => Promise<unknown>) => Promise<unknown>,
): RuntimeProvider {
  const wrapped: Partial<Record<LifecycleMethod, (...args: unknown[]) => Promise<unknown>>> = {};
  for (const method of LIFECYCLE) {
    const original = provider[method] as (...args: unknown[]) => Promise<unknown>;
    wrapped[method] = (...args) => wrap(method, () => original.apply(provider, args));
  }
  return wrapped as RuntimeProvider;
}

/** An error the engine records as "created but failed to initialize": it keeps the id in state. */
export function initFailure(
  message: string,
  id: string,
  properties: Record<string, unknown>,
): Error {
  return Object.assign(new Error(message), { id, properties, reasons: [message] });
}
