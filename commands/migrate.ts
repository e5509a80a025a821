import { randomUUID } from 'node:crypto';
import { KINDS, type ResourceKind } from '../provider/kinds/index';
import { PACKAGE, dynamicToken, kindOf, pluginToken } from '../provider/kinds/tokens';
import { creationToken } from '../provider/framework/creation-token';
import { internalInputs } from '../provider/plugin/identity';
import type { StateResource } from './pulumi';

/**
 * `pulumi-svc migrate`: a stack's state moved from the dynamic resource classes
 * (`pulumi-nodejs:dynamic/svc:<Kind>`, provider code serialized into every resource as
 * `__provider`) to the provider plugin (`svc:index:<Kind>` on a default `pulumi:providers:svc`),
 * so that the program rewritten to the plugin finds every resource as the plugin itself would
 * have stored it: same ids, same inputs, nothing to order, delete or diff.
 *
 * This file is the rewrite of one `pulumi stack export`, pure and offline (no credentials, no
 * calls, secrets moved as the ciphertext they are); migrate-command.ts runs it on a stack.
 */

/** A resource of the export, every field kept (only those below are read or rewritten). */
export type ExportedResource = StateResource & {
  provider?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  deletedWith?: string;
  replaceWith?: string[];
  viewOf?: string;
  created?: string;
  modified?: string;
  [field: string]: unknown;
};

/** `pulumi stack export` (version 3 deployments). */
export interface ExportedState {
  version: number;
  deployment: {
    resources?: ExportedResource[];
    pending_operations?: { type?: string; resource?: { urn?: string } }[];
    [field: string]: unknown;
  };
}

/** The serialized provider code every dynamic resource carries in its inputs and outputs. */
const SERIALIZED_PROVIDER = '__provider';
const NODEJS_PROVIDER_TYPE = 'pulumi:providers:pulumi-nodejs';
const PLUGIN_PROVIDER_TYPE = `pulumi:providers:${PACKAGE}`;

/** Why a stack cannot be migrated as it is, each problem with what to do about it. */
export class MigrationRefused extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}

export interface MovedResource {
  kind: ResourceKind;
  name: string;
  id: string | undefined;
  from: string;
  to: string;
}

export interface Migration {
  /** The state to import; the input state when nothing moves. */
  state: ExportedState;
  moved: MovedResource[];
  /** The `pulumi:providers:svc` default provider the moved resources use (added or reused). */
  provider?: { urn: string; version?: string; added: boolean };
  /** Default `pulumi-nodejs` providers left with no resource, dropped. */
  droppedProviders: string[];
}

export interface MigrateOptions {
  /**
   * The provider version the rewritten program asks for (a generated SDK asks for its own; a
   * YAML program naming the plugin by path, for none), which names the default provider.
   */
  providerVersion?: string;
  /** Stack config (`svc:` keys) set with the move, which the default provider's inputs hold too. */
  config?: Record<string, string>;
  /** The state backend, as the plugin's creation tokens see it (`PULUMI_BACKEND_URL`). */
  backend?: string;
  /** When the added provider is stamped created (tests). */
  now?: Date;
}

/** `urn:pulumi:<stack>::<project>::<qualified type>::<name>` (a name may itself hold `::`). */
function urnParts(urn: string) {
  const match = /^(urn:pulumi:.*?::.*?)::(.*?)::(.*)$/s.exec(urn);
  if (!match) throw new MigrationRefused([`${urn}: not a Pulumi URN`]);
  return { prefix: match[1], types: match[2].split('$'), name: match[3] };
}

/** The kind of a dynamic resource type of this package (`undefined` for any other type). */
function dynamicKind(type: string): string | undefined {
  return type.startsWith(dynamicToken('')) ? kindOf(type) : undefined;
}

const isKnownKind = (kind: string): kind is ResourceKind => Object.hasOwn(KINDS, kind);

/** A URN with every dynamic type of this package in its type chain (parents too) rewritten. */
function pluginUrn(urn: string): string {
  const { prefix, types, name } = urnParts(urn);
  const rewritten = types.map((type) => {
    const kind = dynamicKind(type);
    return kind !== undefined && isKnownKind(kind) ? pluginToken(kind) : type;
  });
  return `${prefix}::${rewritten.join('$')}::${name}`;
}

/**
 * The name the engine gives the default provider of a package at `version`
 * (`providers.ProviderRequest.DefaultName`): `default`, or `default_1_2_3` with the prerelease
 * and build identifiers appended the same way.
 */
export function defaultProviderName(version?: string): string {
  if (!version) return 'default';
  const match = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(
    version,
  );
  if (!match) throw new MigrationRefused([`${version}: not a semantic version`]);
  const [, major, minor, patch, pre, build] = match;
  const extra = [pre, build].flatMap((part) => (part ? part.split('.') : []));
  return ['default', major, minor, patch, ...extra].join('_');
}

const isDefaultProviderOf = (type: string, ref: string | undefined) =>
  ref !== undefined && new RegExp(`::${type}::default(_[^:]*)?::[^:]+$`).test(ref);

/** `<urn>::<id>`, a provider reference, split at its last `::`. */
const providerUrn = (ref: string) => ref.slice(0, ref.lastIndexOf('::'));

/** Every reason the stack cannot be migrated as it is; empty when it can. */
function refusals(resources: ExportedResource[], state: ExportedState): string[] {
  const problems: string[] = [];
  const pending = state.deployment.pending_operations ?? [];
  if (pending.length > 0) {
    const what = pending.map((op) => `${op.type ?? 'an operation'} of ${op.resource?.urn ?? '?'}`);
    problems.push(
      `the stack has ${pending.length} pending operation(s) that an interrupted run left (${what.join('; ')}). ` +
        'Run `pulumi up` with the program as it is (it takes over what the interrupted run ordered), ' +
        'clear them with `pulumi refresh --clear-pending-creates`, then migrate',
    );
  }
  for (const r of resources) {
    const kind = dynamicKind(r.type);
    if (kind === undefined) continue;
    if (!isKnownKind(kind)) {
      problems.push(
        `${r.urn} is of type ${r.type}, which this version of pulumi-svc does not know (its kinds: ${Object.keys(KINDS).join(', ')}); nothing was changed`,
      );
    } else if (r.custom && !isDefaultProviderOf(NODEJS_PROVIDER_TYPE, r.provider)) {
      problems.push(
        `${r.urn} uses the provider ${r.provider ?? '(none)'}, not the default pulumi-nodejs provider of dynamic resources; it cannot be moved to the plugin's default provider`,
      );
    }
  }
  return problems;
}

/** The plugin's default provider for these moved resources: the one the state has, or a new one. */
function pluginProvider(
  resources: ExportedResource[],
  moved: ExportedResource[],
  options: MigrateOptions,
): { resource: ExportedResource; added: boolean } {
  const { prefix } = urnParts(moved[0].urn);
  const urn = `${prefix}::${PLUGIN_PROVIDER_TYPE}::${defaultProviderName(options.providerVersion)}`;
  const existing = resources.find((r) => r.urn === urn && !r.delete);
  if (existing) return { resource: existing, added: false };
  // Its inputs are the stack's `svc:*` config as the dynamic provider recorded it (secrets as
  // their ciphertext), under the plugin's own keys, and the version the program asks for.
  const old = resources.find((r) => r.urn === providerUrn(moved[0].provider!));
  const inputs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...old?.inputs, ...options.config })) {
    if (key.startsWith(`${PACKAGE}:`)) inputs[key.slice(PACKAGE.length + 1)] = value;
  }
  if (options.providerVersion) inputs.version = options.providerVersion.replace(/^v/, '');
  const now = (options.now ?? new Date()).toISOString();
  const resource: ExportedResource = {
    urn,
    custom: true,
    id: randomUUID(),
    type: PLUGIN_PROVIDER_TYPE,
    // With a version the engine also keeps an (empty) `__internal` in the inputs.
    inputs: options.providerVersion ? { __internal: {}, ...inputs } : inputs,
    outputs: { ...inputs },
    created: now,
    modified: now,
  };
  return { resource, added: true };
}

/** Inputs or outputs as the plugin stores them: no code, its internal inputs derived from the URN. */
function pluginProperties(
  kind: ResourceKind,
  urn: string,
  props: Record<string, unknown> | undefined,
  options: MigrateOptions,
  which: 'inputs' | 'outputs',
): Record<string, unknown> | undefined {
  if (!props) return props;
  const { [SERIALIZED_PROVIDER]: _code, ...rest } = props;
  const derived = internalInputs(kind, urn);
  const result = { ...rest };
  for (const [key, value] of Object.entries(derived)) {
    if (which === 'inputs' || key in result) result[key] = value;
  }
  // `check` stores the creation token of the (new) provenance in the inputs; the outputs keep
  // the token the guest was ordered with, as `update` does.
  if (which === 'inputs' && typeof result.creationToken === 'string') {
    result.creationToken = creationToken(result, options.backend ?? '');
  }
  return result;
}

const mapAll = (urns: string[] | undefined, map: (urn: string) => string) => urns?.map(map);

/** One resource with every reference to a moved URN rewritten; a moved one on the plugin. */
function rewrite(
  r: ExportedResource,
  urnMap: (urn: string) => string,
  providerRef: string,
  options: MigrateOptions,
): ExportedResource {
  const next: ExportedResource = { ...r, urn: urnMap(r.urn) };
  if (r.parent) next.parent = urnMap(r.parent);
  if (r.dependencies) next.dependencies = mapAll(r.dependencies, urnMap);
  if (r.deletedWith) next.deletedWith = urnMap(r.deletedWith);
  if (r.replaceWith) next.replaceWith = mapAll(r.replaceWith, urnMap);
  if (r.viewOf) next.viewOf = urnMap(r.viewOf);
  const kind = dynamicKind(r.type);
  const moving = kind !== undefined && isKnownKind(kind);
  if (r.propertyDependencies) {
    const internal = moving ? Object.keys(internalInputs(kind, next.urn)) : [];
    next.propertyDependencies = Object.fromEntries(
      Object.entries(r.propertyDependencies)
        .filter(([key]) => key !== SERIALIZED_PROVIDER && !internal.includes(key))
        .map(([key, urns]) => [key, mapAll(urns, urnMap) ?? []]),
    );
  }
  if (!moving) return next;
  next.type = pluginToken(kind);
  if (r.custom) next.provider = providerRef;
  next.inputs = pluginProperties(kind, next.urn, r.inputs, options, 'inputs');
  next.outputs = pluginProperties(kind, next.urn, r.outputs, options, 'outputs');
  return next;
}

/** The ids of custom resources, by URN (a URN may repeat: a replacement pending deletion). */
const idsOf = (resources: ExportedResource[]) =>
  resources
    .filter((r) => r.custom && r.id && !r.type.startsWith('pulumi:providers:'))
    .map((r) => `${r.urn}\u0000${r.id}`)
    .sort();

/**
 * The state with every resource of this package's dynamic kinds moved to the plugin; throws a
 * `MigrationRefused` naming every problem (and changes nothing) when it cannot be moved.
 */
export function migrateState(state: ExportedState, options: MigrateOptions = {}): Migration {
  if (state.version !== 3) {
    throw new MigrationRefused([
      `a deployment of version ${state.version}; this command reads version 3 (\`pulumi stack export\` of the Pulumi CLI 3.x)`,
    ]);
  }
  const resources = state.deployment.resources ?? [];
  const problems = refusals(resources, state);
  if (problems.length > 0) throw new MigrationRefused(problems);
  const moving = resources.filter((r) => dynamicKind(r.type) !== undefined);
  if (moving.length === 0) return { state, moved: [], droppedProviders: [] };

  const customs = moving.filter((r) => r.custom);
  const provider = customs.length > 0 ? pluginProvider(resources, customs, options) : undefined;
  const providerRef = provider ? `${provider.resource.urn}::${provider.resource.id}` : '';
  const rewritten = resources.map((r) => rewrite(r, pluginUrn, providerRef, options));
  if (provider?.added) rewritten.splice(resources.indexOf(moving[0]), 0, provider.resource);
  // A default pulumi-nodejs provider that no resource uses any more goes (the engine would drop
  // it on the next run anyway); one that other dynamic resources use stays.
  const used = new Set(rewritten.flatMap((r) => (r.provider ? [providerUrn(r.provider)] : [])));
  const dropped = rewritten.filter(
    (r) =>
      r.type === NODEJS_PROVIDER_TYPE &&
      isDefaultProviderOf(NODEJS_PROVIDER_TYPE, `${r.urn}::${r.id}`) &&
      !used.has(r.urn),
  );
  const kept = rewritten.filter((r) => !dropped.includes(r));

  // Never lose an id: every custom resource keeps its id, under its new URN.
  const expected = idsOf(resources.map((r) => ({ ...r, urn: pluginUrn(r.urn) })));
  const actual = idsOf(kept);
  if (JSON.stringify(expected) !== JSON.stringify(actual)) {
    throw new Error(
      'internal error: the rewritten state does not hold the same ids; nothing was changed',
    );
  }
  return {
    state: { ...state, deployment: { ...state.deployment, resources: kept } },
    moved: moving.map((r) => ({
      kind: dynamicKind(r.type) as ResourceKind,
      name: urnParts(r.urn).name,
      id: r.id,
      from: r.urn,
      to: pluginUrn(r.urn),
    })),
    provider: provider && {
      urn: provider.resource.urn,
      version: provider.resource.inputs?.version as string | undefined,
      added: provider.added,
    },
    droppedProviders: dropped.map((r) => r.urn),
  };
}
