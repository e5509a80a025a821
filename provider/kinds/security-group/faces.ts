import type { SecurityGroup } from '../../managers';
import { isProviderTag } from '../../framework/creation-token';
import type { AdoptionFace } from '../faces';

/**
 * A group as the audit adopts it, by its name: any that no state holds but one still described by
 * a creation token, an unfinished create's that its stack's next `up` takes over and the audit
 * lists apart (a group carries no tags).
 */
export const SECURITY_GROUP_ADOPTION: AdoptionFace<SecurityGroup> = {
  list: { service: 'Account', method: 'getSecurityGroups', mask: 'id,name,description' },
  adoptable: () => true,
  unfinished: (group) => isProviderTag(group.description ?? ''),
  name: (group) => `sg-${group.name ?? ''}`,
  nameWord: 'sg',
  describedBy: {},
};
