import { pluginSchema } from '../../scripts/plugin-schema';
import type { Field } from '../../provider/framework/fields';
import { KINDS, pluginToken, type ResourceKind } from '../../provider/kinds/index';

interface Spec {
  type?: string;
  items?: Spec;
  $ref?: string;
  oneOf?: Spec[];
  properties?: Record<string, Spec>;
  enum?: { value: unknown }[];
}

const SCHEMA = pluginSchema() as {
  types: Record<string, Spec>;
  resources: Record<string, { properties: Record<string, Spec>; required: string[] }>;
};

/** Why `value` is not of the schema type `spec` (as an SDK would decode it), or undefined. */
export function typeProblem(spec: Spec, value: unknown, where: string): string | undefined {
  if (value === null) return undefined; // every output may be null (not yet known, unset)
  if (spec.oneOf) {
    const problems = spec.oneOf.map((one) => typeProblem(one, value, where));
    return problems.includes(undefined) ? undefined : problems.join('; ');
  }
  if (spec.$ref) {
    const type = SCHEMA.types[spec.$ref.replace('#/types/', '')];
    if (type?.enum)
      return type.enum.some((e) => e.value === value)
        ? undefined
        : `${where}: ${JSON.stringify(value)} is not one of ${spec.$ref}`;
    if (!type?.properties) return `${where}: ${spec.$ref} is not an object type of the schema`;
    if (typeof value !== 'object' || Array.isArray(value)) return `${where}: not an object`;
    return Object.entries(value as Record<string, unknown>)
      .map(([name, v]) =>
        type.properties?.[name]
          ? typeProblem(type.properties[name], v, `${where}.${name}`)
          : `${where}.${name}: not in ${spec.$ref}`,
      )
      .find(Boolean);
  }
  const ok: Record<string, (v: unknown) => boolean> = {
    string: (v) => typeof v === 'string',
    boolean: (v) => typeof v === 'boolean',
    number: (v) => typeof v === 'number',
    integer: Number.isInteger,
    array: Array.isArray,
  };
  if (!spec.type || !ok[spec.type]) return `${where}: unknown schema type ${JSON.stringify(spec)}`;
  if (!ok[spec.type](value))
    return `${where}: the schema says ${spec.type}, the provider gave ${JSON.stringify(value)}`;
  if (spec.type === 'array' && spec.items)
    return (value as unknown[])
      .map((item, i) => typeProblem(spec.items as Spec, item, `${where}[${i}]`))
      .find(Boolean);
  return undefined;
}

/**
 * State the providers keep besides their tables' fields: the owning account (framework/owner.ts),
 * a zone's records the API made with it (kinds/dns-zone/provider.ts).
 */
const STATE_ONLY = ['accountId', 'builtInRecordIds'];

/**
 * What is wrong with a kind's outputs as the provider hands them over, against the schema's
 * `properties` of the resource: a property the schema does not know (state-only ones aside), a value of another type, a
 * `required` one missing.
 */
export function outputProblems(kind: ResourceKind, outputs: Record<string, unknown>): string[] {
  const spec = SCHEMA.resources[pluginToken(kind)];
  const fields = KINDS[kind].fields as Record<string, Field>;
  // Internal inputs and the provider's own bookkeeping ride along in the state; no SDK reads them.
  const shown = Object.entries(outputs).filter(
    ([name]) => !STATE_ONLY.includes(name) && !fields[name]?.internal,
  );
  const problems = shown.map(([name, value]) =>
    spec.properties[name]
      ? typeProblem(spec.properties[name], value, `${kind}.${name}`)
      : `${kind}.${name}: not a property of the schema`,
  );
  const missing = spec.required
    .filter((name) => outputs[name] === undefined || outputs[name] === null)
    .map((name) => `${kind}.${name}: required by the schema, not given`);
  return [...problems, ...missing].filter((p): p is string => p !== undefined);
}

const FUNCTION_SCHEMA = (
  pluginSchema() as {
    functions: Record<
      string,
      { outputs: { properties: Record<string, Spec>; required: string[] } }
    >;
  }
).functions;

/**
 * What is wrong with a plugin function's answer against the schema's `outputs` of the function:
 * a property it does not declare, a value of another type, a `required` one missing.
 */
export function answerProblems(name: string, answer: Record<string, unknown>): string[] {
  const { properties, required } = FUNCTION_SCHEMA[`svc:index:${name}`].outputs;
  const problems = Object.entries(answer).map(([key, value]) =>
    properties[key]
      ? typeProblem(properties[key], value, `${name}.${key}`)
      : `${name}.${key}: not an output of the schema`,
  );
  const missing = required
    .filter((key) => answer[key] === undefined || answer[key] === null)
    .map((key) => `${name}.${key}: required by the schema, not given`);
  return [...problems, ...missing].filter((p): p is string => p !== undefined);
}
