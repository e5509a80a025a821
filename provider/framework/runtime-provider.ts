import type { CheckFailure } from './failures';
import type { Bag } from './fields';
import type { OperationRequest } from './operation';

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
  /** Each program input that changed, as a door that can shows it (the plugin's detailed diff). */
  fields?: FieldDiff[];
}

export interface FieldDiff {
  name: string;
  kind: 'add' | 'update' | 'delete';
  /** Its change replaces the resource. */
  replace: boolean;
}

export interface CreateResult {
  id: string;
  outs: Bag;
}

/** No id: the object is gone (the state drops it). `inputs`: what an import declares. */
export interface ReadResult {
  id?: string;
  props?: Bag;
  inputs?: Bag;
}

export interface UpdateResult {
  outs: Bag;
}

/**
 * What every kind implements: the whole lifecycle (every resource can be read back and updated).
 * Each method's last argument is the engine call it answers (operation.ts): its cancel signal and
 * deadline. The doors always pass it; a caller outside a door (a test, a command) may leave it out.
 */
export interface RuntimeProvider {
  check(olds: Bag, news: Bag, request?: OperationRequest): Promise<CheckResult>;
  diff(id: string, olds: Bag, news: Bag, request?: OperationRequest): Promise<DiffResult>;
  create(inputs: Bag, request?: OperationRequest): Promise<CreateResult>;
  read(id: string, props?: Bag, request?: OperationRequest): Promise<ReadResult>;
  update(id: string, olds: Bag, news: Bag, request?: OperationRequest): Promise<UpdateResult>;
  delete(id: string, props: Bag, request?: OperationRequest): Promise<void>;
}

export type LifecycleMethod = keyof RuntimeProvider;

/** The lifecycle's methods, listed once, each with the number of arguments before its request. */
export const ARGUMENTS = {
  check: 2,
  diff: 3,
  create: 1,
  read: 2,
  update: 3,
  delete: 2,
} as const satisfies Record<LifecycleMethod, number>;

export const LIFECYCLE = Object.keys(ARGUMENTS) as LifecycleMethod[];

/** Calls `method` of `provider` with its arguments as the door got them, and `request` last. */
export function callWith(
  provider: RuntimeProvider,
  method: LifecycleMethod,
  args: readonly unknown[],
  request: OperationRequest,
): Promise<unknown> {
  const full = Array.from({ length: ARGUMENTS[method] }, (_, i) => args[i]);
  return (provider[method] as (...a: unknown[]) => Promise<unknown>).apply(provider, [
    ...full,
    request,
  ]);
}

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
