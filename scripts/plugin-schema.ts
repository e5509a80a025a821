import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Field, Fields } from '../provider/framework/fields';
import { KINDS, PACKAGE, pluginToken, type ResourceKind } from '../provider/kinds/index';
import { SETTINGS } from '../provider/framework/settings';
import { FUNCTIONS } from '../provider/plugin/functions';
import type { Example, ObjectType, Property, Type } from '../provider/lookups/define';
import { examplesSection, importSection, type SchemaView } from './examples';
import { fieldDocs, kindDocs, tableDocs } from './field-docs';
import { SECURITY_GROUP_RULE_FIELDS } from '../provider/kinds/security-group/rule-fields';
import { SNAPSHOT_SCHEDULE_FIELDS } from '../provider/kinds/volume/schedule-fields';

/**
 * The provider plugin's Pulumi package schema, from the kind registry's field tables (each field's
 * description from its entry's JSDoc comment, as in the README's tables):
 * `npm run generate` rewrites provider/plugin/schema.json, which the
 * plugin serves and the SDKs are generated from; test/scripts/plugin-schema.test.ts keeps the two
 * the same.
 */

export const SCHEMA_FILE = join(__dirname, '..', 'provider', 'plugin', 'schema.json');

type Spec = Record<string, unknown>;

/**
 * Object types fields refer to by kind name: a zone's record has DnsRecord's record fields; a
 * group's rule has the fields of the rule table (its docs read from that table, `docsOf`).
 */
const ZONE_RECORD_FIELDS = ['host', 'type', 'data', 'ttl', 'mxPriority'] as const;
interface ObjectTypeSource {
  token: string;
  /** The table the fields are of: a kind's, or one of its own (`table`, docs by `docsOf`). */
  kind?: ResourceKind;
  table?: { fields: Fields; file: string; name: string };
  fields: readonly string[];
  description: string;
}
const OBJECT_TYPES: Record<string, ObjectTypeSource> = {
  record: {
    token: `${PACKAGE}:index:ZoneRecord`,
    kind: 'DnsRecord',
    fields: ZONE_RECORD_FIELDS,
    description: "A record of a `DnsZone`'s `records`: a `DnsRecord`'s fields, in its zone.",
  },
  rule: {
    token: `${PACKAGE}:index:SecurityGroupRule`,
    table: {
      fields: SECURITY_GROUP_RULE_FIELDS,
      file: 'provider/kinds/security-group/rule-fields.ts',
      name: 'SECURITY_GROUP_RULE_FIELDS',
    },
    fields: Object.keys(SECURITY_GROUP_RULE_FIELDS),
    description: "A rule of a `SecurityGroup`'s `rules`.",
  },
  schedule: {
    token: `${PACKAGE}:index:VolumeSnapshotSchedule`,
    table: {
      fields: SNAPSHOT_SCHEDULE_FIELDS,
      file: 'provider/kinds/volume/schedule-fields.ts',
      name: 'SNAPSHOT_SCHEDULE_FIELDS',
    },
    fields: Object.keys(SNAPSHOT_SCHEDULE_FIELDS),
    description: "A snapshot schedule of a `BlockVolume`'s or `FileVolume`'s `snapshotSchedules`.",
  },
};

/** A field's schema type from its kind name (`integer`, `string[]`, `string \| null`, `record[]`). */
function typeOf(name: string): Spec {
  const plain = name.replace(/ \\\| null$/, '');
  if (plain.endsWith('[]')) return { type: 'array', items: typeOf(plain.slice(0, -2)) };
  if (OBJECT_TYPES[plain]) return { $ref: `#/types/${OBJECT_TYPES[plain].token}` };
  return { type: plain };
}

const enumRef = (name: string) => `#/types/${PACKAGE}:index:${name}`;

/** What an enum's value does (`oneOf.meanings`): every value has one. */
function meaning(oneOf: NonNullable<Field['oneOf']>, value: string): string {
  const text = oneOf.meanings[value];
  if (!text) throw new Error(`${oneOf.name}: the value ${value} has no meaning in its oneOf`);
  return text;
}

/** The enum types of the fields that take only the values of a named list (`oneOf`). */
function enumTypes(docs: ReadonlyMap<string, ReadonlyMap<string, string>>): Spec {
  const fields = [
    ...Object.entries(KINDS).flatMap(([kind, spec]) =>
      Object.entries(spec.fields as Fields).map(([name, field]) => ({ kind, name, field })),
    ),
    // The enums of the object types with a table of their own (a rule's direction).
    ...Object.values(OBJECT_TYPES).flatMap(({ table }) =>
      Object.entries(table?.fields ?? {}).map(([name, field]) => ({
        kind: '',
        name,
        field,
        doc: table && tableDocs(table.file, table.name).get(name),
      })),
    ),
  ];
  // Described as the field that takes it (the first, where several do).
  return Object.fromEntries(
    fields.reverse().flatMap(({ kind, name, field: { oneOf }, ...more }) =>
      oneOf
        ? [
            [
              `${PACKAGE}:index:${oneOf.name}`,
              {
                type: 'string',
                description: 'doc' in more ? more.doc : docs.get(kind)?.get(name),
                enum: oneOf.values.map((value) => ({ value, description: meaning(oneOf, value) })),
              },
            ],
          ]
        : [],
    ),
  );
}

/**
 * A field of a named list: the enum, or, where the check takes any case (`anyCase`), any string
 * or the enum (Pulumi's open enum), so that `type: a` type-checks as the check takes it.
 */
function enumProperty(oneOf: NonNullable<Field['oneOf']>): Spec {
  const ref = { $ref: enumRef(oneOf.name) };
  return oneOf.anyCase
    ? { type: 'string', oneOf: [{ type: 'string' }, { type: 'string', ...ref }] }
    : ref;
}

function kindObjectTypes(docs: ReadonlyMap<string, ReadonlyMap<string, string>>): Spec {
  return Object.fromEntries(
    Object.values(OBJECT_TYPES).map(({ token, kind, table: own, fields, description }) => {
      const table = (own?.fields ?? KINDS[kind!].fields) as Record<string, Field>;
      const fieldDoc = (name: string) =>
        own ? tableDocs(own.file, own.name).get(name) : docs.get(kind!)?.get(name);
      return [
        token,
        {
          type: 'object',
          description,
          properties: Object.fromEntries(
            fields.map((name) => [name, property(table[name], fieldDoc(name))]),
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
    ...(field.oneOf ? enumProperty(field.oneOf) : typeOf(field.type.name)),
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

/** A description, then the example in every language, then how to import (if import works). */
const withSections = (text: string, examples: string, importing?: string) =>
  [text, examples, ...(importing ? [importing] : [])].join('\n\n');

/** The object types the lookups' arguments and answers name, nested ones included. */
function lookupTypes(): Map<string, ObjectType> {
  const found = new Map<string, ObjectType>();
  const visit = (type: Type | undefined) => {
    if (!type) return;
    if (type.item) visit(type.item);
    if (type.value) visit(type.value);
    const object = type.object;
    if (!object || found.has(object.name)) return;
    found.set(object.name, object);
    Object.values(object.properties).forEach((p) => visit(p.type));
  };
  for (const fn of Object.values(FUNCTIONS)) {
    Object.values(fn.inputs).forEach((p) => visit(p.type));
    visit(fn.result.object ? undefined : fn.result);
    Object.values(fn.result.object?.properties ?? {}).forEach((p) => visit(p.type));
  }
  return found;
}

/** An object type's properties: its own, and those it has of a kind (as the kind outputs them). */
function objectSpec(object: ObjectType, resources: Record<string, Spec>): Spec {
  const own = Object.entries(object.properties) as [string, Property][];
  const kind = object.fromKind;
  const resource = kind ? (resources[pluginToken(kind.kind)] as Record<string, Spec>) : undefined;
  const fromKind = (kind?.fields ?? []).map((name) => {
    // What the resource outputs, without what only its inputs mean (a default, a replace).
    const { willReplaceOnChanges: _, default: __, ...spec } = resource!.properties[name] as Spec;
    return [name, spec] as const;
  });
  const always = new Set((resource?.required as string[] | undefined) ?? []);
  return {
    properties: Object.fromEntries([
      ...own.map(([name, p]) => [name, { ...p.type.schema, description: p.description }]),
      ...fromKind,
    ]),
    required: [
      ...own.filter(([, p]) => p.required).map(([name]) => name),
      ...(kind?.fields ?? []).filter((name) => always.has(name)),
    ],
  };
}

/** The plugin's functions: each lookup's arguments (the program's own left out) and typed answer. */
function functions(view: SchemaView): Spec {
  return Object.fromEntries(
    Object.entries(FUNCTIONS).map(([name, fn]) => {
      const token = `${PACKAGE}:index:${name}`;
      const inputs = Object.entries(fn.inputs).filter(([, p]) => !p.programOnly);
      const properties = Object.fromEntries(
        inputs.map(([arg, p]) => [arg, { ...p.type.schema, description: p.description }]),
      );
      const required = inputs.filter(([, p]) => p.required).map(([arg]) => arg);
      const outputs = fn.result.object
        ? objectSpec(fn.result.object, view.resources)
        : {
            properties: { items: { ...fn.result.schema, description: 'What it lists.' } },
            required: ['items'],
          };
      const subject = { token, kind: 'function' as const, inputs: properties };
      return [
        token,
        {
          description: withSections(fn.description, examplesSection(view, subject, fn.example)),
          inputs: { properties, ...(required.length ? { required } : {}) },
          outputs,
        },
      ];
    }),
  );
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

/** The package's logo: provider/plugin/logo.svg, as the repository's main branch serves it. */
export const LOGO_FILE = join(__dirname, '..', 'provider', 'plugin', 'logo.svg');
const LOGO_URL = `${REPOSITORY.replace('https://github.com/', 'https://raw.githubusercontent.com/')}/main/provider/plugin/logo.svg`;

/** What the package manages, from the registry: every kind and the lookups. */
const packageDescription = (kinds: readonly string[]) =>
  `Svc cloud infrastructure with Pulumi, over the Svc XML-RPC API: ${kinds.join(', ')} resources, and lookups of the account's guests, servers, zones, keys, tickets and datacenters.`;

const PROVIDER_DESCRIPTION =
  "The Svc provider. Without an explicit one, resources use the stack's `svc:` config (with each setting's environment variable and the settings file `~/.svc` behind it); an explicit provider takes the same settings as inputs, for a second account or endpoint in one program.";

/**
 * The schema at package.json's version; `pluginDownloadURL` (default: the project's releases)
 * goes into every SDK generated from it, so the engine installs the plugin by itself.
 */
export function pluginSchema(pluginDownloadURL = DEFAULT_PLUGIN_DOWNLOAD_URL): Spec {
  const docs = fieldDocs();
  const kinds = Object.keys(KINDS) as ResourceKind[];
  const resources: Record<string, Spec> = Object.fromEntries(
    kinds.map((kind) => [
      pluginToken(kind),
      resource(KINDS[kind].fields, docs.get(kind) ?? new Map(), described(kind)),
    ]),
  );
  const types = { ...kindObjectTypes(docs), ...enumTypes(docs) } as Record<string, Spec>;
  for (const object of lookupTypes().values()) {
    types[`${PACKAGE}:index:${object.name}`] = {
      type: 'object',
      description: object.description,
      ...objectSpec(object, resources),
    };
  }
  const view: SchemaView = { name: PACKAGE, types, resources };
  for (const kind of kinds) {
    const token = pluginToken(kind);
    const { example, importId } = KINDS[kind].docs;
    const spec = resources[token] as { description: string; inputProperties: Record<string, Spec> };
    const subject = { token, kind: 'resource' as const, inputs: spec.inputProperties };
    spec.description = withSections(
      spec.description,
      examplesSection(view, subject, example satisfies Example),
      importId && importSection(token, example.name, importId),
    );
  }
  return {
    name: PACKAGE,
    displayName: 'Svc',
    version: PROJECT.version,
    description: packageDescription(kinds),
    logoUrl: LOGO_URL,
    keywords: ['pulumi', 'svc', 'category/infrastructure', 'kind/native'],
    homepage: PROJECT.homepage,
    repository: REPOSITORY,
    publisher: 'pulumi-svc',
    pluginDownloadURL,
    license: 'MIT',
    config: { variables: settings(false) },
    types,
    provider: { description: PROVIDER_DESCRIPTION, inputProperties: settings(true) },
    resources,
    functions: functions(view),
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
        // The lowest Python that `pulumi` 3.248.0 installs on (its wheel's Requires-Python; the
        // generator's default, 3.9, would let pip pick this SDK and then fail on `pulumi`).
        pythonRequires: '>=3.10',
        pyproject: { enabled: true },
        respectSchemaVersion: true,
      },
      go: {
        importBasePath: 'github.com/pulumi-svc/pulumi-svc/sdk/go/svc',
        // What Pulumi's own providers set: `VirtualGuestArray`, `...Map` and their outputs, and
        // the pointer and collection input types of every object type.
        generateResourceContainerTypes: true,
        generateExtraInputTypes: true,
        respectSchemaVersion: true,
      },
    },
  };
}

/** Rewrites provider/plugin/schema.json (a piece of `npm run generate`, scripts/generate.ts). */
export function writeSchema(): void {
  writeFileSync(SCHEMA_FILE, `${JSON.stringify(pluginSchema(), null, 2)}\n`);
}
