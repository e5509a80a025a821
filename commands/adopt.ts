import type { AdoptFilter, AdoptionFace, ApiObject } from '../provider/kinds/faces';
import { kindOf, pluginToken } from '../provider/kinds/tokens';
import { BILLING_FACES, registryFaces, type BillingFaces } from './billed-kinds';
import type { StackState } from './pulumi';

/**
 * What of the account no stack owns, and Pulumi's bulk import file for it (`pulumi import
 * --file`). Each adoptable kind says through its adoption face (provider/kinds/faces.ts) how its
 * objects are listed, which of them may be adopted (a guest with this provider's tags is the
 * audit's orphan, never adopted; a zone's SOA record is the zone's own), which are an unfinished
 * create's leftovers (a free kind's object still carrying a creation token: never adopted, the
 * audit lists them apart), which ids a state holds
 * (a zone's state its records' too), how its entry is named and which filters describe it. An
 * object is owned when an audited state holds its id. Objects without this provider's tags carry
 * nothing more, so one a stack of another backend (or one not named with `--stack`) holds looks
 * unowned: audit every stack that may own them.
 */

/** The adoptable kinds with their faces, in the import file's order. */
export type AdoptionFaces = Readonly<Record<string, AdoptionFace>>;

/**
 * The faces in the import file's order: kinds that bill nothing before billed ones (those a
 * reader checks most close the file), a kind's children right after it (a zone's records),
 * else the registry's order.
 */
export function inFileOrder(faces: AdoptionFaces, billed: BillingFaces): AdoptionFaces {
  const kinds = Object.keys(faces);
  const childrenOf = (kind: string) => kinds.filter((k) => faces[k].parent?.kind === kind);
  const roots = [false, true].flatMap((isBilled) =>
    kinds.filter((k) => !faces[k].parent && Object.hasOwn(billed, k) === isBilled),
  );
  const placed = roots.flatMap((kind) => [kind, ...childrenOf(kind)]);
  const order = [...placed, ...kinds.filter((k) => !placed.includes(k))];
  return Object.fromEntries(order.map((kind) => [kind, faces[kind]]));
}

export const ADOPTION_FACES: AdoptionFaces = inFileOrder(registryFaces('adoption'), BILLING_FACES);

/** The account's objects (or those of them no stack owns) of each adoptable kind. */
export type AccountObjects = Readonly<Record<string, readonly ApiObject[]>>;

/** Narrows what is adopted; each filter keeps the objects it can describe (README). */
export type AdoptFilters = Partial<Record<AdoptFilter, string>>;

/** One entry of Pulumi's bulk import file. */
export interface ImportEntry {
  type: string;
  name: string;
  id: string;
  /** The name of another entry of the file (a record's zone). */
  parent?: string;
}

const key = (kind: string, id: unknown) => `${kind}:${String(id)}`;

/** `kind:id` of everything the states hold (a zone's records too, through its face). */
function ownedKeys(states: StackState[], faces: AdoptionFaces): Set<string> {
  const owned = new Set<string>();
  for (const resource of states.flatMap((s) => s.resources)) {
    const kind = kindOf(resource.type);
    if (kind === undefined || !Object.hasOwn(faces, kind) || !resource.id) continue;
    owned.add(key(kind, resource.id));
    const held = faces[kind].holds?.(resource.outputs ?? {}) ?? {};
    for (const [other, ids] of Object.entries(held))
      for (const id of ids) owned.add(key(other, id));
  }
  return owned;
}

/** The account's objects that no audited stack owns and that `keep` keeps, per kind. */
function notOwned(
  states: StackState[],
  account: AccountObjects,
  faces: AdoptionFaces,
  keep: (face: AdoptionFace, object: ApiObject) => boolean,
): AccountObjects {
  const owned = ownedKeys(states, faces);
  return Object.fromEntries(
    Object.entries(faces).map(([kind, face]) => [
      kind,
      (account[kind] ?? []).filter((o) => !owned.has(key(kind, o.id)) && keep(face, o)),
    ]),
  );
}

/** The account's objects that no audited stack owns and that may be adopted, per kind. */
export const unownedObjects = (
  states: StackState[],
  account: AccountObjects,
  faces: AdoptionFaces = ADOPTION_FACES,
): AccountObjects =>
  notOwned(states, account, faces, (face, o) => face.adoptable(o) && !face.unfinished?.(o));

/** An object an unfinished create left that no audited stack owns (its face's `unfinished`). */
export interface Leftover {
  kind: string;
  id: number;
  /** How its face names it (`sg-web`). */
  name: string;
}

/**
 * The objects of the kinds that bill nothing that an unfinished create left and no audited stack
 * owns, in the faces' order: never adopted, so the audit lists them on their own.
 */
export function leftovers(
  states: StackState[],
  account: AccountObjects,
  faces: AdoptionFaces = ADOPTION_FACES,
): Leftover[] {
  const left = notOwned(states, account, faces, (face, o) => face.unfinished?.(o) === true);
  return Object.entries(left).flatMap(([kind, objects]) =>
    objects.map((o) => ({ kind, id: o.id, name: faces[kind].name(o) })),
  );
}

/** A case-insensitive glob (`*`, `?`) as a test. */
export function globTest(pattern: string): (text: string) => boolean {
  const source = pattern
    .split('')
    .map((ch) => (ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&')))
    .join('');
  const re = new RegExp(`^${source}$`, 'i');
  return (text) => re.test(text);
}

/** Whether `filter` describes `object` and its value matches it (`tag`: one of its tags). */
function matches(face: AdoptionFace, filter: AdoptFilter, value: string, object: ApiObject) {
  if (filter === 'tag') {
    const tags = face.describedBy.tag?.(object);
    return tags !== undefined && tags.includes(value.trim().toLowerCase());
  }
  const text = face.describedBy[filter]?.(object);
  return text !== undefined && globTest(value)(text);
}

/**
 * The objects the filters keep: those whose kind every given filter describes and which match
 * each, and those whose parent is kept (a record follows its zone). A kind a filter cannot
 * describe is left out by it (with `--datacenter` only what has a datacenter is kept).
 */
export function narrowed(
  unowned: AccountObjects,
  filters: AdoptFilters,
  faces: AdoptionFaces = ADOPTION_FACES,
): AccountObjects {
  const given = Object.entries(filters).filter(
    (entry): entry is [AdoptFilter, string] => entry[1] !== undefined,
  );
  const kept = new Set<string>();
  const out: Record<string, ApiObject[]> = {};
  // In the file's order, so a parent is decided before its children.
  for (const [kind, face] of Object.entries(faces)) {
    const parentKept = (o: ApiObject) =>
      face.parent !== undefined && kept.has(key(face.parent.kind, face.parent.id(o)));
    out[kind] = (unowned[kind] ?? []).filter(
      (o) => given.every(([filter, value]) => matches(face, filter, value, o)) || parentKept(o),
    );
    for (const o of out[kind]) kept.add(key(kind, o.id));
  }
  return out;
}

/** The kinds `filter` describes, each with the kinds that follow it: `DnsZone with DnsRecord`. */
export function describedKinds(filter: AdoptFilter, faces: AdoptionFaces = ADOPTION_FACES): string {
  const kinds = Object.keys(faces);
  return kinds
    .filter((kind) => faces[kind].describedBy[filter] !== undefined)
    .map((kind) => {
      const children = kinds.filter((k) => faces[k].parent?.kind === kind);
      return children.length ? `${kind} with ${children.join(', ')}` : kind;
    })
    .join(', ');
}

/**
 * A resource name from free text: lower-case letters, digits and underscores, starting with a
 * letter; an identifier in every language the import writes (a dash makes YAML write
 * `${["web-1"]}` for a reference).
 */
function slug(text: string, kindWord: string): string {
  const base = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 80);
  return /^[a-z]/.test(base) ? base : `${kindWord}_${base || 'unnamed'}`;
}

interface Candidate {
  kind: string;
  id: number;
  /** The name unless another object would have it too. */
  base: string;
  /** `kind:id` of the object it is parented to, when that one is in the file. */
  parent?: string;
}

/**
 * Pulumi's bulk import file for these objects, in the faces' order: plugin type tokens, names
 * that are valid in every language and stable (from the object's own names, the same account
 * gives the same file; a name two objects would share gets each one's id appended) and each
 * object parented to its parent (a record to its zone) when the parent is in the file.
 */
export function importFile(
  objects: AccountObjects,
  faces: AdoptionFaces = ADOPTION_FACES,
): { resources: ImportEntry[] } {
  const candidates: Candidate[] = Object.entries(faces).flatMap(([kind, face]) =>
    (objects[kind] ?? []).map((o) => ({
      kind,
      id: o.id,
      base: slug(face.name(o), face.nameWord),
      parent: face.parent && key(face.parent.kind, face.parent.id(o)),
    })),
  );
  const uses = new Map<string, number>();
  for (const c of candidates) uses.set(c.base, (uses.get(c.base) ?? 0) + 1);
  const nameOf = (c: Candidate) => (uses.get(c.base)! > 1 ? `${c.base}_${c.id}` : c.base);
  const entryName = new Map(candidates.map((c) => [key(c.kind, c.id), nameOf(c)]));
  return {
    resources: candidates.map((c) => {
      const parent = c.parent === undefined ? undefined : entryName.get(c.parent);
      return {
        type: pluginToken(c.kind),
        name: nameOf(c),
        id: String(c.id),
        ...(parent ? { parent } : {}),
      };
    }),
  };
}
