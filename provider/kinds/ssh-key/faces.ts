import { SSH_KEY_MASK, type SshKey } from '../../managers';
import type { AdoptionFace } from '../faces';

/** A key as the audit adopts it: any key no state holds (a key carries no tags), by its label. */
export const SSH_KEY_ADOPTION: AdoptionFace<SshKey> = {
  list: { service: 'Account', method: 'getSshKeys', mask: SSH_KEY_MASK },
  adoptable: () => true,
  name: (key) => `key-${key.label}`,
  nameWord: 'key',
  describedBy: {},
};
