/**
 * Svc_Security_Ssh_Key: public keys stored on the account (`Account.getSshKeys`), given to guests
 * at order time by id. The API computes each key's fingerprint (MD5 of the decoded key, as
 * colon-separated hex), keeps at most one key per fingerprint and 100 keys per account, and lets
 * only the label and notes change once a key is stored.
 */
import { invalidValue, propertyNotValid, publicFault } from '../../errors';
import { typeDef } from '../../schema';
import { expectArgs, ok, one, owned, requireId, structArg, type AuthedContext } from '../context';
import { serviceFolder } from '../service';
import { fingerprintOf, parseKey, tables, type SshKeyRec } from './model';
import './types';

const TYPE = 'Svc_Security_Ssh_Key';
const MAX_KEYS = 100;
const MAX_LABEL = 100;
const MAX_NOTES = 1000;
const MAX_KEY = 16 * 1024;
/** Read-only properties a client may echo back from a key it read. */
const ECHOED = new Set(['complexType', 'id', 'fingerprint', 'createDate', 'modifyDate']);

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

export const sshKey = serviceFolder({
  tables,
  services: {
    Security_Ssh_Key: {
      load: loadKey,
      methods: {
        createObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const template = structArg(ctx, 0, 'templateObject');
            checkProperties(template);
            for (const field of ['key', 'label']) {
              if (template[field] === undefined || template[field] === null)
                throw publicFault(
                  `Property '${field}' must be set to create an instance of ${TYPE}.`,
                );
            }
            const key = text(template.key, 'key', MAX_KEY).trim();
            const fingerprint = fingerprintOf(parseKey(key).body);
            const keys = ctx.store.by('sshKeys', 'accountId', ctx.account.id);
            if (keys.some((k) => k.fingerprint === fingerprint))
              throw publicFault(
                `An SSH key with fingerprint ${fingerprint} already exists on this account.`,
              );
            if (keys.length >= MAX_KEYS)
              throw publicFault(
                `An account may hold at most ${MAX_KEYS} SSH keys; delete one first.`,
              );
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
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    sshKey: typeof sshKey;
  }
}
