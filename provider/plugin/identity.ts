import type { Bag } from '../framework/fields';
import { nameDerivedInputs, nameOfUrn } from '../framework/identity';
import { KINDS, type ResourceKind } from '../kinds/index';

/**
 * What a kind takes from its resource's name (framework/identity.ts), here from the URN the engine
 * sends; the creation token's seed is `plugin/<URN>` (`pulumi-svc migrate` writes the same).
 */
export const internalInputs = (kind: ResourceKind, urn: string): Bag =>
  nameDerivedInputs(KINDS[kind].fields, nameOfUrn(urn), () => `plugin/${urn}`);
