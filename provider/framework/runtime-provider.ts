import type { CheckFailure } from './failures';
import type { Bag } from './fields';

/**
 * The lifecycle's answers, in the framework's own terms: each front door translates them to its
 * protocol (the dynamic provider's results, the plugin's gRPC responses).
 */
export interface CheckResult {
  /** The checked inputs, defaults filled in (what the state keeps). */
  inputs?: Bag;
  /** One per field that breaks a rule. */
  failures?: CheckFailure[];
}

export interface DiffResult {
  /** false: nothing changes; true: something does; unset: the engine compares the inputs itself. */
  changes?: boolean;
  /** The fields whose change replaces the resource. */
  replaces?: string[];
  deleteBeforeReplace?: boolean;
}

export interface CreateResult {
  id: string;
  outs?: Bag;
}

/** No id: the object is gone (the state drops it). `inputs`: what an import declares. */
export interface ReadResult {
  id?: string;
  props?: Bag;
  inputs?: Bag;
}

export interface UpdateResult {
  outs?: Bag;
}

/** What every kind implements: the whole lifecycle (every resource can be read back and updated). */
export interface RuntimeProvider {
  check(olds: Bag, news: Bag): Promise<CheckResult>;
  diff(id: string, olds: Bag, news: Bag): Promise<DiffResult>;
  create(inputs: Bag): Promise<CreateResult>;
  read(id: string, props?: Bag): Promise<ReadResult>;
  update(id: string, olds: Bag, news: Bag): Promise<UpdateResult>;
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
