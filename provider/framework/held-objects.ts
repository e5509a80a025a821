/**
 * The objects a state holds, as far as this provider process has been told: the id of every
 * diff, refresh, update and delete, by the creation token its stored properties carry.
 *
 * A create never takes one of them over as an earlier unfinished create's object, whatever mark
 * it carries: during a replace that orders first (`--replace`, `replaceOnChanges`, a replacing
 * field), the resource's current object carries the same token, and the engine deletes it once
 * the create answers. The handed mark says the same of objects made since it existed; this also
 * covers one made before it, or whose mark a user removed. The engine diffs a resource before it
 * replaces it, in the same provider process, so the id is known by then.
 */
const held = new Map<string, Set<string>>();

/** Records that a state holds `id`, made with the token in `props` (if any). */
export function noteHeld(props: Record<string, unknown> | undefined, id: string): void {
  const token = props?.creationToken;
  if (typeof token !== 'string' || !id) return;
  const ids = held.get(token) ?? new Set<string>();
  ids.add(id);
  held.set(token, ids);
}

/** Whether a state holds the object `id` made with `token` (see the module comment). */
export const isHeld = (token: string, id: number | string): boolean =>
  held.get(token)?.has(String(id)) ?? false;
