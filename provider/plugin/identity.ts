import type { Bag } from '../framework/fields';
import { KINDS, type ResourceKind } from '../kinds/index';

/**
 * What the dynamic resource class adds to a resource's inputs from its name (resourceName, the
 * auto-name's seed `identity`, the creation token's seed `provenance`), here from the URN the
 * engine sends: `urn:pulumi:<stack>::<project>::<type>::<name>`. Only the fields the kind's
 * table has are set.
 */
export function internalInputs(kind: ResourceKind, urn: string): Bag {
  const [head, project = '', , name = ''] = urn.split('::');
  const stack = head.split(':').pop() ?? '';
  const values: Bag = {
    resourceName: name,
    identity: `${project}/${stack}/${name}`,
    provenance: `plugin/${urn}`,
  };
  const fields = KINDS[kind].fields;
  return Object.fromEntries(Object.entries(values).filter(([key]) => key in fields));
}
