/**
 * Services and their methods. Each service names its type and how to load the object a call
 * addresses; `getObject` and a getter per relational/on-demand property (`getTagReferences`,
 * `getUpdates`, `getResourceRecords`, ...) come for free from the schema, as on the real API.
 */
import { ApiFault, FaultCodes } from '../errors';
import { typeDef } from '../schema';
import {
  checkFilter,
  expectArgs,
  list,
  one,
  serviceType,
  type AuthedContext,
  type CallResult,
} from './context';

export type Access = 'user' | 'optional' | 'none';

export interface MethodDef {
  /** `user` (default): a valid caller is required; `optional`: checked when given; `none`: ignored. */
  access?: Access;
  handler(ctx: AuthedContext): CallResult | Promise<CallResult>;
}

export interface ServiceDef {
  /** Without the `Svc_` prefix, e.g. `Virtual_Guest`. */
  name: string;
  /** Loads the object the call addresses (by init-parameter id, or implicitly); faults when absent. */
  load?: (ctx: AuthedContext) => unknown;
  methods: Record<string, MethodDef>;
}

const services = new Map<string, ServiceDef>();

export function defineService(def: ServiceDef): void {
  services.set(def.name, def);
}

/** Finds the method; faults -32601 for an unknown service or method. */
export function resolveMethod(service: string, method: string): MethodDef {
  const def = services.get(service);
  if (!def) throw new ApiFault(FaultCodes.methodNotFound, 'Service does not exist');
  if (Object.hasOwn(def.methods, method)) return def.methods[method];
  const generic = def.load && genericMethod(def, method);
  if (!generic) {
    throw new ApiFault(
      FaultCodes.methodNotFound,
      `Function ("${method}") is not a valid method for this service.`,
    );
  }
  return generic;
}

function genericMethod(def: ServiceDef, method: string): MethodDef | undefined {
  const load = def.load!;
  const type = typeDef(serviceType(def.name));
  if (method === 'getObject') {
    return {
      handler: (ctx) => {
        expectArgs(ctx, []);
        checkFilter(ctx);
        return one(ctx, type.name, load(ctx));
      },
    };
  }
  if (!method.startsWith('get') || method.length < 4) return undefined;
  const property = method[3].toLowerCase() + method.slice(4);
  const relation = type.relations.get(property);
  if (relation) {
    return {
      handler: (ctx) => {
        expectArgs(ctx, []);
        const object = load(ctx);
        if (!relation.many) return one(ctx, relation.type, relation.get(object, ctx));
        return list(ctx, relation.type, relation.get(object, ctx) as unknown[], [property]);
      },
    };
  }
  const plain = type.onDemand.get(property);
  if (plain) {
    return {
      handler: (ctx) => {
        expectArgs(ctx, []);
        return { value: plain(load(ctx), ctx) ?? null };
      },
    };
  }
  return undefined;
}

export function listServices(): string[] {
  return [...services.keys()].map((name) => `Svc_${name}`);
}
