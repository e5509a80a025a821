/**
 * Turns an object into what the API returns for a mask level: all local properties by default,
 * only the named ones when the level names any local property; relational and count properties
 * only when named. Null/absent values are left out, as the real API does.
 */
import { relationItems, typeDef, type TypeDef, type ViewContext } from '../schema';
import { matches, type FilterNode } from './filter';
import type { MaskNode } from './mask';

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
  let localsNamed = false;
  if (named) {
    for (const [name] of named) {
      const get = type.locals.get(name);
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
    const count = type.counts.get(name);
    if (count) {
      out[name] = count(object, ctx);
      continue;
    }
    const relation = type.relations.get(name);
    if (!relation) continue;
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
