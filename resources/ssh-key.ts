import type { ArgsOf } from '../provider/framework/fields';
import { SSH_KEY_FIELDS } from '../provider/kinds/ssh-key/fields';
import { resourceClass, type ResourceClass } from './resource-class';

/** The arguments of an SshKey: see its field table (provider/kinds/ssh-key/fields.ts). */
export type SshKeyArgs = ArgsOf<typeof SSH_KEY_FIELDS>;

/**
 * An SSH public key on the account (`Svc_Security_Ssh_Key`), to install on guests:
 * `new VirtualGuest('web', { ..., sshKeyIds: [key.keyId] })`.
 */
export const SshKey: ResourceClass<typeof SSH_KEY_FIELDS> = resourceClass('SshKey', SSH_KEY_FIELDS);
export type SshKey = InstanceType<typeof SshKey>;
