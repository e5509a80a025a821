import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Field, Fields } from '../provider/framework/fields';
import { KINDS, PACKAGE, pluginToken, type ResourceKind } from '../provider/kinds/index';
import { SETTINGS } from '../provider/framework/settings';
import { FUNCTIONS } from '../provider/plugin/functions';
import { fieldDocs, kindDocs } from './field-docs';

/**
 * The provider plugin's Pulumi package schema, from the kind registry's field tables (each field's
 * description from its entry's JSDoc comment, as in the README's tables):
 * `node --import tsx scripts/plugin-schema.ts` rewrites provider/plugin/schema.json, which the
 * plugin serves and the SDKs are generated from; test/scripts/plugin-schema.test.ts keeps the two
 * the same.
 */

export const SCHEMA_FILE = join(__dirname, '..', 'provider', 'plugin', 'schema.json');

type Spec = Record<string, unknown>;

/** Object types fields refer to by kind name: a zone's record has DnsRecord's record fields. */
const ZONE_RECORD_FIELDS = ['host', 'type', 'data', 'ttl', 'mxPriority'] as const;
const OBJECT_TYPES: Record<
  string,
  { token: string; kind: ResourceKind; fields: readonly string[] }
> = {
  record: { token: `${PACKAGE}:index:ZoneRecord`, kind: 'DnsRecord', fields: ZONE_RECORD_FIELDS },
};

/** A field's schema type from its kind name (`integer`, `string[]`, `string \| null`, `record[]`). */
function typeOf(name: string): Spec {
  const plain = name.replace(/ \\\| null$/, '');
  if (plain.endsWith('[]')) return { type: 'array', items: typeOf(plain.slice(0, -2)) };
  if (OBJECT_TYPES[plain]) return { $ref: `#/types/${OBJECT_TYPES[plain].token}` };
  return { type: plain };
}

const enumRef = (name: string) => `#/types/${PACKAGE}:index:${name}`;

/** The enum types of the fields that take only the values of a named list (`oneOf`). */
function enumTypes(): Spec {
  const fields = Object.values(KINDS).flatMap((kind) => Object.values(kind.fields as Fields));
  return Object.fromEntries(
    fields.flatMap(({ oneOf }) =>
      oneOf
        ? [
            [
              `${PACKAGE}:index:${oneOf.name}`,
              { type: 'string', enum: oneOf.values.map((value) => ({ value })) },
            ],
          ]
        : [],
    ),
  );
}

function objectTypes(docs: ReadonlyMap<string, ReadonlyMap<string, string>>): Spec {
  return Object.fromEntries(
    Object.values(OBJECT_TYPES).map(({ token, kind, fields }) => {
      const table = KINDS[kind].fields as Record<string, Field>;
      return [
        token,
        {
          type: 'object',
          properties: Object.fromEntries(
            fields.map((name) => [name, property(table[name], docs.get(kind)?.get(name))]),
          ),
          required: fields.filter((name) => table[name].input === 'required'),
        },
      ];
    }),
  );
}

/**
 * A field's schema type is its stored type, what the provider returns, for the inputs too: an
 * input typed otherwise (`sshKeyIds` as `id[]`, strings) would not take the outputs it is fed
 * from (`SshKey.keyId`), and an SDK reading it back would fail to decode it. `arg` is only what
 * the dynamic classes accept besides.
 */
function property(field: Field, description: string | undefined): Spec {
  return {
    ...(field.oneOf ? { $ref: enumRef(field.oneOf.name) } : typeOf(field.type.name)),
    ...(description ? { description } : {}),
    ...(field.secret ? { secret: true } : {}),
    // A schema default is a constant: a boolean, number or string.
    ...(['boolean', 'number', 'string'].includes(typeof field.default)
      ? { default: field.default }
      : {}),
  };
}

/**
 * A change of the field replaces the resource (by default, for a field `onImageChange: reload`
 * changes in place): `willReplaceOnChanges`, what docs and SDKs show. Not `replaceOnChanges`, which
 * the SDKs turn into the resource option and the engine would then replace a guest the provider
 * reloads. A zone record's fields are not marked: in a zone, a record's new type updates the zone.
 */
const replaces = (field: Field) => field.change === 'replace';

const isArg = (field: Field) => field.input !== undefined && !field.internal;
const always = (field: Field) =>
  field.input === 'required' ||
  field.default !== undefined ||
  field.defaultFrom !== undefined ||
  (field.output === true && !field.input && !field.type.name.endsWith('| null'));

function resource(fields: Fields, docs: ReadonlyMap<string, string>, description: string): Spec {
  const entries = Object.entries(fields) as [string, Field][];
  const spec = (keep: (field: Field) => boolean) =>
    Object.fromEntries(
      entries
        .filter(([, f]) => keep(f))
        .map(([name, f]) => [
          name,
          {
            ...property(f, docs.get(name)),
            ...(replaces(f) ? { willReplaceOnChanges: true } : {}),
          },
        ]),
    );
  return {
    description,
    inputProperties: spec(isArg),
    requiredInputs: entries.filter(([, f]) => isArg(f) && f.input === 'required').map(([n]) => n),
    properties: spec((f) => isArg(f) || f.output === true),
    required: entries.filter(([, f]) => (isArg(f) || f.output) && always(f)).map(([n]) => n),
  };
}

/** What a kind is, from its resource class's doc comment: the one text every door shows. */
function described(kind: ResourceKind): string {
  const text = kindDocs().get(kind);
  if (!text) throw new Error(`resources/: the ${kind} class has no doc comment for the schema`);
  return text;
}

/**
 * The `svc:` settings (framework/settings.ts), with their defaults and environment variables. An
 * explicit provider's inputs state no default for a setting the settings file `~/.svc` can give
 * (the SDK would send it, and it would then win over the file), and no variable for a secret (the
 * SDK would read the key in the program and send it through the state; the provider reads it).
 */
const settings = (explicit: boolean) =>
  Object.fromEntries(
    SETTINGS.map(({ key, description, secret, type, env, file, default: value }) => [
      key,
      {
        type,
        description,
        ...(value === undefined || (explicit && file) ? {} : { default: value }),
        ...(explicit && secret ? {} : { defaultInfo: { environment: [env] } }),
        ...(secret ? { secret: true } : {}),
      },
    ]),
  );

/** What package.json says of the project: the one place its version and addresses are written. */
const PROJECT = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
  version: string;
  homepage: string;
  repository: { url: string };
};
const REPOSITORY = PROJECT.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/**
 * Where the engine downloads the plugin from by default: the project's GitHub releases, in the
 * form Pulumi's engine reads as "the release v<version> of this repository"
 * (`pulumi-resource-svc-v<version>-<os>-<arch>.tar.gz` among its assets).
 */
export const DEFAULT_PLUGIN_DOWNLOAD_URL = REPOSITORY.replace(
  /^https:\/\/github\.com\//,
  'github://api.github.com/',
);

/**
 * The schema at package.json's version; `pluginDownloadURL` (default: the project's releases)
 * goes into every SDK generated from it, so the engine installs the plugin by itself.
 */
export function pluginSchema(pluginDownloadURL = DEFAULT_PLUGIN_DOWNLOAD_URL): Spec {
  const docs = fieldDocs();
  const kinds = Object.keys(KINDS) as ResourceKind[];
  return {
    name: PACKAGE,
    displayName: 'Svc',
    version: PROJECT.version,
    description: 'Svc infrastructure (virtual guests, SSH keys, DNS, ticket updates) for Pulumi.',
    keywords: ['pulumi', 'svc', 'category/infrastructure', 'kind/native'],
    homepage: PROJECT.homepage,
    repository: REPOSITORY,
    publisher: 'pulumi-svc',
    pluginDownloadURL,
    license: 'MIT',
    config: { variables: settings(false) },
    types: { ...objectTypes(docs), ...enumTypes() },
    provider: { description: 'The Svc provider.', inputProperties: settings(true) },
    resources: Object.fromEntries(
      kinds.map((kind) => [
        pluginToken(kind),
        resource(KINDS[kind].fields, docs.get(kind) ?? new Map(), described(kind)),
      ]),
    ),
    functions: Object.fromEntries(
      Object.entries(FUNCTIONS).map(([name, fn]) => [
        `${PACKAGE}:index:${name}`,
        {
          description: fn.description,
          inputs: { properties: fn.inputs, ...(fn.required ? { required: fn.required } : {}) },
          outputs: { properties: fn.outputs },
        },
      ]),
    ),
    // respectSchemaVersion: the SDKs carry the schema's version (package.json's), as the
    // plugin they ask the engine for, instead of a placeholder a packer must replace.
    language: {
      nodejs: {
        packageName: '@pulumi-svc/svc',
        dependencies: { '@pulumi/pulumi': '^3.248.0' },
        respectSchemaVersion: true,
      },
      python: {
        packageName: 'pulumi_svc',
        requires: { pulumi: '>=3.248.0,<4.0.0' },
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: {
        importBasePath: 'github.com/pulumi-svc/pulumi-svc/sdk/go/svc',
        respectSchemaVersion: true,
      },
    },
  };
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, `${JSON.stringify(pluginSchema(), null, 2)}\n`);
}
