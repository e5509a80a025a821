import type { Bag, Fields } from './fields';

/**
 * Inputs a resource takes from its name, not from its program. A kind asks for them by having
 * these internal fields in its table (the guest's auto-name and creation token are seeded by
 * them); each front door fills them in from what it knows of the resource.
 */
export interface ResourceName {
  name: string;
  project: string;
  stack: string;
}

/**
 * The name-derived inputs that `fields` has: `resourceName`, `identity` (`project/stack/name`,
 * the seed of an auto-name) and `provenance` (the seed of a creation token; each door has its
 * own form, so it is given, and asked for only when the kind has it).
 */
export function nameDerivedInputs<P>(fields: Fields, of: ResourceName, provenance: () => P): Bag {
  const inputs: Bag = {};
  if ('resourceName' in fields) inputs.resourceName = of.name;
  if ('identity' in fields) inputs.identity = `${of.project}/${of.stack}/${of.name}`;
  if ('provenance' in fields) inputs.provenance = provenance();
  return inputs;
}

/** The resource named by a URN: `urn:pulumi:<stack>::<project>::<type>::<name>`. */
export function nameOfUrn(urn: string): ResourceName {
  const [head, project = '', , name = ''] = urn.split('::');
  return { name, project, stack: head.split(':').pop() ?? '' };
}
