import { createHash } from 'node:crypto';
import { tagNames, type VirtualGuest } from '../../managers';
import { TOKEN_TAG_PREFIX } from './rules';

/**
 * Provenance of a guest: which resource's create ordered it, and whether a completed create has
 * handed it to a state.
 *
 * - Every order carries the resource's creation token as a tag (set atomically with the order).
 *   The token is derived from the resource's full URN (parents included), the Pulumi organization
 *   and the state backend (`PULUMI_BACKEND_URL`, when set), so two resources of one stack never
 *   share one, nor do stacks of the same name in different backends that set it.
 * - When a create completes (or fails after the order was accepted, keeping the id), it adds the
 *   owned tag before the engine records the id. A guest with the owned tag has been handed to a
 *   state; no create ever adopts it again, whatever token it carries.
 *
 * A create adopts only a guest that carries its token and not the owned tag: the guest of an
 * earlier create of this very resource that did not finish (a lost answer, a timeout, a killed
 * CLI).
 */

/** Reserved for the provider's own tags; user tags may not start with it (rules.ts). */
export { TOKEN_TAG_PREFIX };

/** A completed create handed this guest to a state: never adopted by another create. */
export const OWNED_TAG = `${TOKEN_TAG_PREFIX}owned`;

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

/** Tags the provider manages (creation tokens, the owned tag): kept through every tag edit. */
export const isProviderTag = (tag: string) => tag.startsWith(TOKEN_TAG_PREFIX);

export const isOwned = (guest: VirtualGuest) => tagNames(guest).includes(OWNED_TAG);

export const providerTags = (guest: VirtualGuest) => tagNames(guest).filter(isProviderTag);
