import { createHash } from 'node:crypto';

/**
 * The creation token a billed order carries (a guest's tag, a volume's order container
 * identifier): derived from the resource's full URN (parents included), the Pulumi organization
 * and the state backend (`PULUMI_BACKEND_URL`, when set), so two resources of one stack never
 * share one, nor do stacks of the same name in different backends that set it. A create that
 * finds an object carrying its own token knows its earlier, unfinished create made it.
 */

/** Reserved for the provider's own tags and identifiers; user tags may not start with it. */
export const TOKEN_TAG_PREFIX = 'pulumi-svc-';

/**
 * The handed mark: a completed create wrote it on its object right before the engine recorded the
 * id (a guest's or server's tag; the last line of a volume's, VLAN's or host's note), so an object
 * carrying a creation token without it is an unfinished create's (framework/handed-mark.ts).
 */
export const OWNED_TAG = `${TOKEN_TAG_PREFIX}owned`;

/** The note's last line that marks it: `OWNED_TAG` on a line of its own. */
const NOTE_LINE = `\n${OWNED_TAG}`;

/** How long a declared note may be: the API's 1,000 characters less the mark's line. */
export const MARKED_NOTE_MAX = 1000 - NOTE_LINE.length;

export const isNoteMarked = (note: string | undefined) =>
  note === OWNED_TAG || (note ?? '').endsWith(NOTE_LINE);

/** The note as declared: without the mark's line. */
export function declaredNote(note: string | undefined): string {
  if (note === OWNED_TAG) return '';
  return isNoteMarked(note) ? note!.slice(0, -NOTE_LINE.length) : (note ?? '');
}

/** The declared note with the mark's line. */
export const markedNote = (declared: string | undefined) =>
  declared ? `${declared}${NOTE_LINE}` : OWNED_TAG;

/** Tags the provider manages (creation tokens, the owned tag): kept through every tag edit. */
export const isProviderTag = (tag: string) => tag.startsWith(TOKEN_TAG_PREFIX);

/**
 * What the provider's marks say of an object (the audit's provenance): `none` without a creation
 * token (made elsewhere), `unfinished` with one and without the handed mark, `handed` with both.
 */
export const provenanceOf = (carriesToken: boolean, handed: boolean) =>
  !carriesToken ? ('none' as const) : handed ? ('handed' as const) : ('unfinished' as const);

/** The provenance of an object whose token and mark are both tags (a guest, a server). */
export const tagProvenance = (tags: readonly string[]) =>
  provenanceOf(tags.some(isProviderTag), tags.includes(OWNED_TAG));

/** The backend the state lives in, when the environment names it. */
export function backendKey(env: NodeJS.ProcessEnv = process.env): string {
  return (env.PULUMI_BACKEND_URL ?? '').trim().replace(/\/+$/, '');
}

/**
 * The creation token of a resource: `provenance` is `<organization>/<full URN>` (computed by the
 * resource class); older programs that only pass `identity` (`project/stack/name`) still get one.
 */
export function creationToken(
  inputs: { provenance?: unknown; identity?: unknown },
  backend = backendKey(),
): string {
  const who = String(inputs.provenance ?? inputs.identity ?? '');
  const digest = createHash('sha256').update(['token/v2', backend, who].join('\u0000'));
  return TOKEN_TAG_PREFIX + digest.digest('hex').slice(0, 24);
}
