/**
 * Turns an object into what the API returns for a mask level: all local properties by default,
 * only the named ones when the level names any local property; relational and on-demand
 * properties only when named. Null/absent values are left out, as the real API does. A level
 * cast to another type (`mask(Svc_Hardware_Server)[...]`) also reads that type's properties.
 */
import { relationItems, typeDef, type TypeDef, type ViewContext } from '../schema';
import { matches, type FilterNode } from './filter';
import { levelTypes, type MaskNode } from './mask';

export function project(
  type: TypeDef,
  object: unknown,
  mask: MaskNode | undefined,
  ctx: ViewContext,
  /** With `filteredMask`, nested lists are pruned by the matching part of the filter. */
  filter?: FilterNode,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const named = mask?.props;
  const types = mask ? levelTypes(mask, type) : [type];
  let localsNamed = false;
  if (named) {
    for (const [name] of named) {
      const get = types.find((t) => t.locals.has(name))?.locals.get(name);
      if (!get) continue;
      localsNamed = true;
      put(out, name, get(object, ctx));
    }
  }
  if (!localsNamed) {
    for (const [name, get] of type.locals) put(out, name, get(object, ctx));
  }
  if (!named) return out;
  for (const [name, child] of named) {
    const owner = types.find((t) => t.onDemand.has(name) || t.relations.has(name));
    if (!owner) continue;
    const plain = owner.onDemand.get(name);
    if (plain) {
      put(out, name, plain(object, ctx));
      continue;
    }
    const relation = owner.relations.get(name)!;
    const target = typeDef(relation.type);
    const childFilter = filter?.children.get(name)?.node;
    if (relation.many) {
      let items = relationItems(relation, object, ctx);
      if (childFilter) items = items.filter((item) => matches(childFilter, item, ctx));
      out[name] = items.map((item) => project(target, item, child, ctx, childFilter));
    } else {
      const value = relation.get(object, ctx);
      if (value !== null && value !== undefined)
        out[name] = project(target, value, child, ctx, childFilter);
    }
  }
  return out;
}

function put(out: Record<string, unknown>, name: string, value: unknown): void {
  if (value !== null && value !== undefined) out[name] = value;
}
