/**
 * Public SSH keys stored on the account, given to guests at order time by id. The API computes
 * each key's fingerprint (MD5 of the decoded key, as colon-separated hex).
 */
import { createHash } from 'node:crypto';
import { invalidValue, publicFault } from '../../errors';
import { table, type RecordsOf } from '../../store';
import type { AuthedContext } from '../context';

export interface SshKeyRec {
  id: number;
  accountId: number;
  label: string;
  /** The public key as sent, without surrounding whitespace. */
  key: string;
  /** MD5 of the decoded key body, colon-separated hex. */
  fingerprint: string;
  notes?: string;
  createDate: number;
  modifyDate: number;
}

export const tables = { sshKeys: table<SshKeyRec>(420001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

const KEY_TYPES = [
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
];
const badKey = (reason: string) =>
  invalidValue(
    `Invalid value provided for 'key': ${reason}. Expected an OpenSSH public key such as 'ssh-ed25519 AAAA... comment' (${KEY_TYPES.join(', ')}).`,
  );

/** The key's type and decoded body, or a fault saying what is wrong with it. */
export function parseKey(text: string): { type: string; body: Buffer } {
  const [type, encoded] = text.trim().split(/\s+/);
  if (!KEY_TYPES.includes(type)) throw badKey(`unsupported key type '${type.slice(0, 40)}'`);
  if (!encoded || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0)
    throw badKey('the key body is not base64');
  const body = Buffer.from(encoded, 'base64');
  const length = body.length >= 4 ? body.readUInt32BE(0) : -1;
  const embedded =
    length > 0 && 4 + length <= body.length ? body.toString('latin1', 4, 4 + length) : '';
  if (embedded !== type) throw badKey(`the key body is not a '${type}' key`);
  return { type, body };
}

export function fingerprintOf(body: Buffer): string {
  return createHash('md5')
    .update(body)
    .digest('hex')
    .replace(/(..)(?!$)/g, '$1:');
}

/** Faults unless every id is a key of the caller's account (orders name keys by id). */
export function checkSshKeyIds(ctx: AuthedContext, ids: readonly number[]): void {
  for (const id of ids) {
    const key = ctx.store.get('sshKeys', id);
    if (!key || key.accountId !== ctx.account.id)
      throw publicFault(`SSH key ${id} does not exist on this account.`);
  }
}
