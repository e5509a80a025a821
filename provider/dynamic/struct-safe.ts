import type * as pulumi from '@pulumi/pulumi';
import type { Bag } from './fields';

/** A deep copy without undefined values: the engine's protobuf Struct rejects them. */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Bag).filter(([, v]) => v !== undefined);
    return Object.fromEntries(entries.map(([k, v]) => [k, withoutUndefined(v)])) as T;
  }
  return value;
}

export interface RuntimeProvider {
  check(olds: Bag, news: Bag): Promise<pulumi.dynamic.CheckResult>;
  diff(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.DiffResult>;
  create(inputs: Bag): Promise<pulumi.dynamic.CreateResult>;
  read(id: string, props?: Bag): Promise<pulumi.dynamic.ReadResult>;
  update(id: string, olds: Bag, news: Bag): Promise<pulumi.dynamic.UpdateResult>;
  delete(id: string, props: Bag): Promise<void>;
}

/** Wraps a provider so every property bag it hands back to the engine can be encoded. */
export function structSafe(provider: RuntimeProvider): RuntimeProvider {
  return {
    check: async (olds, news) => withoutUndefined(await provider.check(olds, news)),
    diff: (id, olds, news) => provider.diff(id, olds, news),
    create: async (inputs) => withoutUndefined(await provider.create(inputs)),
    read: async (id, props) => withoutUndefined(await provider.read(id, props)),
    update: async (id, olds, news) => withoutUndefined(await provider.update(id, olds, news)),
    delete: (id, props) => provider.delete(id, props),
  };
}
