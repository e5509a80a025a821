import { isProviderTag } from '../../framework/creation-token';
import type { AdoptionFace } from '../faces';
import type { PlacementGroup } from './fields';

/**
 * A placement group as the audit adopts it, by its name, described by its router's datacenter:
 * any that no state holds but one still named by a creation token, an unfinished create's that
 * its stack's next `up` takes over and the audit lists apart (a group carries no tags).
 */
export const PLACEMENT_GROUP_ADOPTION: AdoptionFace<PlacementGroup> = {
  list: {
    service: 'Account',
    method: 'getPlacementGroups',
    mask: 'id,name,backendRouter.topLevelLocation.name',
  },
  adoptable: () => true,
  unfinished: (group) => isProviderTag(group.name ?? ''),
  name: (group) => `pg-${group.name ?? ''}`,
  nameWord: 'pg',
  describedBy: { datacenter: (group) => group.backendRouter?.topLevelLocation?.name ?? '' },
};
