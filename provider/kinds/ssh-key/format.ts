import { createHash } from 'node:crypto';

/**
 * OpenSSH public keys as `check` reads them (`<type> <base64 body> [comment]`, one line): the
 * type must be one the API takes, the body must decode, and the type written inside the body must
 * be the same, with the fields that type has. Each problem is named in words a person can act on.
 */

export const KEY_TYPES = [
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
] as const;

export interface PublicKey {
  type: string;
  /** The base64 body as given. */
  body: string;
  comment?: string;
  /** MD5 of the decoded body in colon-separated hex: the fingerprint the API stores. */
  fingerprint: string;
}

const SUPPORTED = `ssh-rsa, ssh-ed25519 or ecdsa-sha2-nistp256/384/521`;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Reads the length-prefixed fields of an SSH wire-format key body. */
function fields(bytes: Buffer): Buffer[] | undefined {
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    if (at + 4 > bytes.length) return undefined;
    const length = bytes.readUInt32BE(at);
    if (at + 4 + length > bytes.length) return undefined;
    out.push(bytes.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}

/** What is wrong with the fields after the type, for a body whose type matched. */
function shapeProblem(type: string, rest: Buffer[]): string | undefined {
  if (type === 'ssh-ed25519') {
    return rest.length === 1 && rest[0].length === 32
      ? undefined
      : 'its ssh-ed25519 body must hold one 32-byte key';
  }
  if (type === 'ssh-rsa') {
    return rest.length === 2 && rest.every((part) => part.length > 0)
      ? undefined
      : 'its ssh-rsa body must hold an exponent and a modulus';
  }
  const curve = type.slice('ecdsa-sha2-'.length);
  if (rest.length !== 2 || rest[0].toString('latin1') !== curve)
    return `its ${type} body must name the curve ${curve} and hold one point`;
  return rest[1][0] === 4 ? undefined : `its ${type} body does not hold an uncompressed point`;
}

/** The key, or a sentence saying what is wrong with it (starting lower-case, after "publicKey "). */
export function parsePublicKey(text: string): PublicKey | string {
  const trimmed = text.trim();
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(trimmed) || trimmed.startsWith('PuTTY-User-Key'))
    return 'is a private key; give the public key (the content of the .pub file) and keep the private key to yourself';
  if (trimmed.startsWith('---- BEGIN SSH2 PUBLIC KEY'))
    return 'is in SSH2 (RFC 4716) form; convert it with `ssh-keygen -i -f key.pub` to the one-line OpenSSH form';
  if (/[\r\n]/.test(trimmed)) return 'must be one key on one line';
  const [type, body, ...comment] = trimmed.split(/[ \t]+/);
  if (!(KEY_TYPES as readonly string[]).includes(type)) {
    return `starts with ${JSON.stringify(type.slice(0, 40))}, which is not a supported key type; use ${SUPPORTED}`;
  }
  if (!body) return `has the type ${type} but no key after it`;
  if (!BASE64.test(body) || body.length % 4 !== 0)
    return `has a ${type} body that is not valid base64`;
  const parts = fields(Buffer.from(body, 'base64'));
  if (!parts || parts.length === 0) return `has a ${type} body that is not an SSH public key`;
  const embedded = parts[0].toString('latin1');
  if (embedded !== type) {
    const shown = /^[\x20-\x7e]{1,40}$/.test(embedded) ? embedded : 'something else';
    return `says ${type} but its body is a ${shown} key`;
  }
  const problem = shapeProblem(type, parts.slice(1));
  if (problem) return problem;
  return {
    type,
    body,
    ...(comment.length > 0 ? { comment: comment.join(' ') } : {}),
    fingerprint: md5Fingerprint(Buffer.from(body, 'base64')),
  };
}

export function md5Fingerprint(bytes: Buffer): string {
  return createHash('md5')
    .update(bytes)
    .digest('hex')
    .replace(/(..)(?!$)/g, '$1:');
}

/** The fingerprint of a valid key, undefined for anything else. */
export function fingerprintOf(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const parsed = parsePublicKey(text);
  return typeof parsed === 'string' ? undefined : parsed.fingerprint;
}
