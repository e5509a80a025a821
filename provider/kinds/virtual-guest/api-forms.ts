import { tagNames, type GuestNetworkComponent, type VirtualGuest } from '../../managers';
import { isProviderTag } from '../../framework/creation-token';

/**
 * Where the API's form of a guest's field differs from the declared one without meaning a change
 * (the field table's read-backs use these).
 */

/** `UBUNTU_LATEST` is satisfied by whatever concrete Ubuntu the platform installed. */
export function sameOs(declared: unknown, actual: unknown): boolean {
  if (!declared || !actual || declared === actual) return true;
  if (typeof declared !== 'string' || typeof actual !== 'string') return false;
  return declared.endsWith('_LATEST') && actual.startsWith(declared.slice(0, -'LATEST'.length));
}

/**
 * User data is sent and compared exactly as declared: never decoded (base64-looking text stays
 * text) nor re-encoded. Only line endings and trailing newlines, which a server may normalise on
 * storage, are not counted as a change when reading it back.
 */
export function sameUserData(declared: unknown, actual: unknown): boolean {
  const canonical = (text: unknown) =>
    String(text ?? '')
      .replace(/\r\n?/g, '\n')
      .replace(/\n+$/, '');
  return canonical(declared) === canonical(actual);
}

/** The user's tags (of a guest or server): the provider's own (creation token, owned) are not inputs. */
export function userTags(object: Pick<VirtualGuest, 'tagReferences'>): string[] {
  return tagNames(object)
    .filter((tag) => !isProviderTag(tag))
    .sort();
}

/** The security groups in force on an interface, ascending (none when it has no interface). */
export const boundGroupIds = (nic: GuestNetworkComponent | null | undefined): number[] =>
  [...new Set((nic?.securityGroupBindings ?? []).map((b) => b.securityGroupId))].sort(
    (a, b) => a - b,
  );
