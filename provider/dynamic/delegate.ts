import type * as pulumi from '@pulumi/pulumi';

import type { ResourceKind } from '../kinds/index';

/** (Type-only imports: nothing of the runtime or the registry is loaded in the program.) */
type Runtime = typeof import('./runtime');
export type { ResourceKind };

/**
 * The provider object Pulumi serializes into the state of every resource. It captures nothing but
 * `kind`: each method loads the compiled runtime by package name in the provider process and
 * delegates, so no client, credential or schema ends up in the state, and refactors of the runtime
 * do not invalidate stored providers as long as `pulumi-svc/runtime` keeps its exports.
 */
export function delegatingProvider(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const runtime = (): Runtime => require('pulumi-svc/runtime');
  return {
    configure: (req) => runtime().configure(req),
    check: (olds, news) => runtime().providers[kind].check(olds, news),
    diff: (id, olds, news) => runtime().providers[kind].diff(id, olds, news),
    create: (inputs) => runtime().providers[kind].create(inputs),
    read: (id, props) => runtime().providers[kind].read(id, props),
    update: (id, olds, news) => runtime().providers[kind].update(id, olds, news),
    delete: (id, props) => runtime().providers[kind].delete(id, props),
  };
}
