import * as pulumi from '@pulumi/pulumi';
import { delegatingProvider, type ResourceKind } from '../provider/dynamic/delegate';
import { loadSerializerBuiltinsQuietly } from '../provider/dynamic/serializer-builtins';
import {
  outputNames,
  type ArgsOf,
  type Fields,
  type OutputsOf,
} from '../provider/framework/fields';
import { nameDerivedInputs } from '../provider/framework/identity';
import { reapRunOnExit } from '../provider/framework/pulumi-run';
import { PACKAGE, dynamicToken } from '../provider/kinds/tokens';
import { computed } from './computed';
import { assertNotMovedToPlugin } from './moved-to-plugin';
import { assertApiKeyIsSecret } from './secret-config';

/**
 * A resource class: `new X(name, args, opts)`, with the table's outputs as properties. Annotate a
 * class's const with it (`ResourceClass<typeof TABLE>`): an inferred one is printed into the .d.ts
 * as a copy of the table's type without its JSDoc, so IDEs would show no field docs.
 */
export type ResourceClass<F extends Fields> = new (
  name: string,
  args: ArgsOf<F>,
  opts?: pulumi.CustomResourceOptions,
) => pulumi.dynamic.Resource & OutputsOf<F>;

// A program killed with its CLI takes the run's language host and provider processes along.
reapRunOnExit();

/**
 * `<organization>/<URN>` of the resource, the seed of its creation token. Computed from the
 * parent's URN through a plain promise: an Output of the parent's URN would make this resource
 * depend on its parent, and depending on a component means waiting for all of its children.
 */
function provenance(kind: ResourceKind, name: string, parent?: pulumi.Resource) {
  const urn = pulumi.createUrn(name, dynamicToken(kind), parent);
  const known = new Promise<string>((resolve) => urn.apply(resolve));
  return pulumi.output(known).apply((text) => `${pulumi.getOrganization()}/${text}`);
}

/**
 * The class of resource `kind` from its field table: its arguments and output properties are the
 * table's, its provider the delegating one (delegate.ts). `super(…, PACKAGE, kind)` registers it
 * under Pulumi's dynamic provider, as `pulumi-nodejs:dynamic/svc:<kind>` (`dynamicToken`,
 * provider/kinds/tokens.ts); the plugin's token of the same kind is `svc:index:<kind>`.
 */
export function resourceClass<F extends Fields>(kind: ResourceKind, fields: F): ResourceClass<F> {
  const provider = delegatingProvider(kind);
  const outputs = outputNames(fields);
  class SvcResource extends pulumi.dynamic.Resource {
    constructor(name: string, args: ArgsOf<F>, opts?: pulumi.CustomResourceOptions) {
      // Refuse to start when `svc:apiKey` is set in plain text (secret-config.ts), or on a stack
      // moved to the provider plugin (moved-to-plugin.ts).
      assertApiKeyIsSecret();
      assertNotMovedToPlugin();
      // Before super() serializes the provider: no warning of Node.js's in the user's `up`.
      loadSerializerBuiltinsQuietly();
      super(
        provider,
        name,
        // Every output must be a key of the props to become an Output property, given or not.
        {
          ...computed(outputs),
          ...args,
          ...nameDerivedInputs(
            fields,
            { name, project: pulumi.getProject(), stack: pulumi.getStack() },
            () => provenance(kind, name, opts?.parent),
          ),
        },
        opts,
        PACKAGE,
        kind,
      );
    }
  }
  Object.defineProperty(SvcResource, 'name', { value: kind });
  return SvcResource as unknown as ResourceClass<F>;
}
