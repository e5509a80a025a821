import type { AdoptionFace } from '../faces';
import type { PlacementGroup } from './fields';

/**
 * A placement group as the audit adopts it: any group no state holds (a group carries no tags),
 * by its name, described by its router's datacenter.
 */
export const PLACEMENT_GROUP_ADOPTION: AdoptionFace<PlacementGroup> = {
  list: {
    service: 'Account',
    method: 'getPlacementGroups',
    mask: 'id,name,backendRouter.topLevelLocation.name',
  },
  adoptable: () => true,
  name: (group) => `pg-${group.name ?? ''}`,
  nameWord: 'pg',
  describedBy: { datacenter: (group) => group.backendRouter?.topLevelLocation?.name ?? '' },
};
