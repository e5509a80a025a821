import { tagNames, type VirtualGuest } from '../../managers';
import { OWNED_TAG, isProviderTag } from '../../framework/creation-token';

/**
 * Provenance of a guest: which resource's create ordered it, and whether a completed create has
 * handed it to a state.
 *
 * - Every order carries the resource's creation token as a tag (set atomically with the order;
 *   framework/creation-token.ts).
 * - When a create completes (or fails after the order was accepted, keeping the id), it adds the
 *   owned tag before the engine records the id. A guest with the owned tag has been handed to a
 *   state; no create ever adopts it again, whatever token it carries.
 *
 * A create adopts only a guest that carries its token and not the owned tag: the guest of an
 * earlier create of this very resource that did not finish (a lost answer, a timeout, a killed
 * CLI).
 */

/** A completed create handed this guest to a state: never adopted by another create. */
export { OWNED_TAG };

export const isOwned = (guest: VirtualGuest) => tagNames(guest).includes(OWNED_TAG);

export const providerTags = (guest: VirtualGuest) => tagNames(guest).filter(isProviderTag);
