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

/** Tags the provider manages (creation tokens, the owned tag): kept through every tag edit. */
export const isProviderTag = (tag: string) => tag.startsWith(TOKEN_TAG_PREFIX);

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
