/**
 * Svc_Security_Ssh_Key: public keys stored on the account (`Account.getSshKeys`), given to guests
 * at order time by id. The API computes each key's fingerprint (MD5 of the decoded key, as
 * colon-separated hex), keeps at most one key per fingerprint and 100 keys per account, and lets
 * only the label and notes change once a key is stored.
 */
import { createHash } from 'node:crypto';
import { invalidValue, propertyNotValid, publicFault } from '../errors';
import type { SshKeyRec } from '../records';
import { typeDef } from '../schema';
import { expectArgs, ok, one, owned, requireId, structArg, type AuthedContext } from './context';
import { defineService } from './registry';

const TYPE = 'Svc_Security_Ssh_Key';
const MAX_KEYS = 100;
const MAX_LABEL = 100;
const MAX_NOTES = 1000;
const MAX_KEY = 16 * 1024;
const KEY_TYPES = [
  'ssh-rsa',
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
];
/** Read-only properties a client may echo back from a key it read. */
const ECHOED = new Set(['complexType', 'id', 'fingerprint', 'createDate', 'modifyDate']);

const badKey = (reason: string) =>
  invalidValue(
    `Invalid value provided for 'key': ${reason}. Expected an OpenSSH public key such as 'ssh-ed25519 AAAA... comment' (${KEY_TYPES.join(', ')}).`,
  );

/** The key's type and decoded body, or a fault saying what is wrong with it. */
function parseKey(text: string): { type: string; body: Buffer } {
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

function text(value: unknown, field: string, max: number): string {
  if (typeof value !== 'string')
    throw invalidValue(`Invalid value provided for '${field}': expected a string.`);
  if (value.length > max)
    throw invalidValue(`Invalid value provided for '${field}': at most ${max} characters.`);
  return value;
}

function checkProperties(template: Record<string, unknown>): void {
  const type = typeDef(TYPE);
  for (const key of Object.keys(template)) {
    if (!ECHOED.has(key) && !type.locals.has(key) && !type.relations.has(key))
      throw propertyNotValid(key, TYPE);
  }
}

function label(value: unknown): string {
  const trimmed = text(value, 'label', MAX_LABEL).trim();
  if (trimmed === '') throw invalidValue("Invalid value provided for 'label': it is empty.");
  return trimmed;
}

const notes = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? undefined
    : text(value, 'notes', MAX_NOTES);

const loadKey = (ctx: AuthedContext): SshKeyRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('sshKeys', id), id);
};

/** Faults unless every id is a key of the caller's account (orders name keys by id). */
export function checkSshKeyIds(ctx: AuthedContext, ids: readonly number[]): void {
  for (const id of ids) {
    const key = ctx.store.get('sshKeys', id);
    if (!key || key.accountId !== ctx.account.id)
      throw publicFault(`SSH key ${id} does not exist on this account.`);
  }
}

defineService({
  name: 'Security_Ssh_Key',
  load: loadKey,
  methods: {
    createObject: {
      handler: async (ctx) => {
        expectArgs(ctx, ['templateObject']);
        const template = structArg(ctx, 0, 'templateObject');
        checkProperties(template);
        for (const field of ['key', 'label']) {
          if (template[field] === undefined || template[field] === null)
            throw publicFault(`Property '${field}' must be set to create an instance of ${TYPE}.`);
        }
        const key = text(template.key, 'key', MAX_KEY).trim();
        const fingerprint = fingerprintOf(parseKey(key).body);
        const keys = ctx.store.by('sshKeys', 'accountId', ctx.account.id);
        if (keys.some((k) => k.fingerprint === fingerprint))
          throw publicFault(
            `An SSH key with fingerprint ${fingerprint} already exists on this account.`,
          );
        if (keys.length >= MAX_KEYS)
          throw publicFault(`An account may hold at most ${MAX_KEYS} SSH keys; delete one first.`);
        const record: SshKeyRec = {
          id: ctx.store.nextId('sshKeys'),
          accountId: ctx.account.id,
          label: label(template.label),
          key,
          fingerprint,
          notes: notes(template.notes),
          createDate: ctx.now,
          modifyDate: ctx.now,
        };
        await ctx.store.write([{ put: 'sshKeys', record }]);
        return one(ctx, TYPE, record);
      },
    },
    editObject: {
      handler: async (ctx) => {
        expectArgs(ctx, ['templateObject']);
        const current = loadKey(ctx);
        const template = structArg(ctx, 0, 'templateObject');
        checkProperties(template);
        if (
          template.key !== undefined &&
          template.key !== null &&
          (typeof template.key !== 'string' || template.key.trim() !== current.key)
        ) {
          throw publicFault(
            'The key of an SSH key cannot be changed; add the new key and delete this one.',
          );
        }
        const record: SshKeyRec = { ...current, modifyDate: ctx.now };
        if (template.label !== undefined && template.label !== null)
          record.label = label(template.label);
        if (template.notes !== undefined) record.notes = notes(template.notes);
        await ctx.store.write([{ put: 'sshKeys', record }]);
        return ok(true);
      },
    },
    deleteObject: {
      handler: async (ctx) => {
        expectArgs(ctx, []);
        const key = loadKey(ctx);
        await ctx.store.write([{ del: 'sshKeys', id: key.id }]);
        return ok(true);
      },
    },
  },
});
