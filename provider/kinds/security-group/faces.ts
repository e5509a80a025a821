import type { SecurityGroup } from '../../managers';
import type { AdoptionFace } from '../faces';

/** A group as the audit adopts it: any group no state holds (a group carries no tags), by its name. */
export const SECURITY_GROUP_ADOPTION: AdoptionFace<SecurityGroup> = {
  list: { service: 'Account', method: 'getSecurityGroups', mask: 'id,name' },
  adoptable: () => true,
  name: (group) => `sg-${group.name ?? ''}`,
  nameWord: 'sg',
  describedBy: {},
};
