import type { Client } from '../client';
import { isNotFound } from '../client/errors';
import { unlessNotFound } from './not-found';

/** `Svc_Security_Ssh_Key`: a public key stored on the account. */
export interface SshKey {
  id: number;
  label: string;
  key: string;
  /** MD5 of the decoded key, colon-separated hex (as `ssh-keygen -E md5 -lf` prints it). */
  fingerprint: string;
  notes?: string;
  createDate?: string;
  modifyDate?: string;
}

export const SSH_KEY_MASK = 'id,label,key,fingerprint,notes,createDate,modifyDate';

/** The account's SSH keys: list, look up by fingerprint, add, edit label and notes, delete. */
export class SshKeyManager {
  constructor(private readonly client: Client) {}

  async listKeys(filter?: { fingerprint?: string; label?: string }): Promise<SshKey[]> {
    const conditions = Object.entries(filter ?? {}).filter(([, value]) => value !== undefined);
    return (await this.client.call('Account', 'getSshKeys', {
      mask: SSH_KEY_MASK,
      ...(conditions.length > 0
        ? {
            filter: {
              sshKeys: Object.fromEntries(conditions.map(([k, v]) => [k, { operation: v }])),
            },
          }
        : {}),
    })) as SshKey[];
  }

  /** The key with this fingerprint, if the account has one (the API keeps one per fingerprint). */
  async findByFingerprint(fingerprint: string): Promise<SshKey | undefined> {
    return (await this.listKeys({ fingerprint }))[0];
  }

  async getKey(id: number): Promise<SshKey> {
    return (await this.client.call('Security_Ssh_Key', 'getObject', {
      id,
      mask: SSH_KEY_MASK,
    })) as SshKey;
  }

  /** The key, or undefined when it does not exist (or belongs to another account). */
  findKey(id: number): Promise<SshKey | undefined> {
    return unlessNotFound(this.getKey(id));
  }

  /** Adds the key. A write: the client never repeats it on its own. */
  async createKey(spec: { label: string; key: string; notes?: string }): Promise<SshKey> {
    return (await this.client.call('Security_Ssh_Key', 'createObject', {
      args: [{ label: spec.label, key: spec.key, ...(spec.notes ? { notes: spec.notes } : {}) }],
      mask: SSH_KEY_MASK,
    })) as SshKey;
  }

  /** Changes the label and notes (the key itself cannot change); `notes: ''` clears them. */
  async editKey(id: number, changes: { label?: string; notes?: string }): Promise<void> {
    await this.client.call('Security_Ssh_Key', 'editObject', { id, args: [changes] });
  }

  /** Deletes the key; one that is already gone counts as deleted. */
  async deleteKey(id: number): Promise<void> {
    try {
      await this.client.call('Security_Ssh_Key', 'deleteObject', { id });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
