import * as pulumi from '@pulumi/pulumi';
import { delegatingProvider } from '../provider/dynamic/delegate';
import { computed } from './computed';

const provider = delegatingProvider('SshKey');

export interface SshKeyArgs {
  /** A name for the key on the account. Changes in place. */
  label: pulumi.Input<string>;
  /**
   * The public key in OpenSSH form, `<type> <base64> [comment]`: ssh-rsa, ssh-ed25519 or
   * ecdsa-sha2-nistp256/384/521 (e.g. the content of `~/.ssh/id_ed25519.pub`). A different key
   * replaces the resource (and the guests that use it); the comment alone is not part of the key.
   */
  publicKey: pulumi.Input<string>;
  /** Changes in place. */
  notes?: pulumi.Input<string>;
  /**
   * Take over the account's existing key with this id (it must be the same key). Without it, a
   * key the account already has fails in `check`, naming that key's id.
   */
  adoptId?: pulumi.Input<string | number>;
}

/**
 * An SSH public key on the account (`Svc_Security_Ssh_Key`), to install on guests:
 * `new VirtualGuest('web', { ..., sshKeyIds: [key.keyId] })`.
 */
export class SshKey extends pulumi.dynamic.Resource {
  declare readonly label: pulumi.Output<string>;
  declare readonly publicKey: pulumi.Output<string>;
  declare readonly notes: pulumi.Output<string | undefined>;
  /** The numeric id, for `VirtualGuest.sshKeyIds` (the resource id is the same number as a string). */
  declare readonly keyId: pulumi.Output<number>;
  /** MD5 of the key, colon-separated hex: what `ssh-keygen -E md5 -lf <file>` prints. */
  declare readonly fingerprint: pulumi.Output<string>;
  declare readonly createDate: pulumi.Output<string | null>;

  constructor(name: string, args: SshKeyArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      provider,
      name,
      { ...computed(['notes', 'keyId', 'fingerprint', 'createDate']), ...args },
      opts,
      'svc',
      'SshKey',
    );
  }
}
