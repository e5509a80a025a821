import { IMAGE_MASK, type ImageTemplate } from '../../managers';
import { isProviderTag } from '../../framework/creation-token';
import type { AdoptionFace } from '../faces';

/**
 * A private template as the audit adopts it, by its name: any that no state holds but one still
 * noted with a creation token, an unfinished create's that its stack's next `up` takes over and
 * the audit lists apart.
 * A template is available in several datacenters, so no datacenter filter describes it.
 */
export const IMAGE_TEMPLATE_ADOPTION: AdoptionFace<ImageTemplate> = {
  list: { service: 'Account', method: 'getPrivateBlockDeviceTemplateGroups', mask: IMAGE_MASK },
  adoptable: () => true,
  unfinished: (template) => isProviderTag(template.note ?? ''),
  name: (template) => `image-${template.name}`,
  nameWord: 'image',
  describedBy: {},
};
