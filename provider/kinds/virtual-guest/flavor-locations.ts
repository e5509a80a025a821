import type { Failures } from '../../framework/failures';
import type { Connection } from '../../framework/connection';
import { isKnown } from '../../framework/unknown';
import { choices } from './placement';
import type { GuestInputs } from './inputs';

/** The public virtual server package, whose presets are the guest flavors. */
const GUEST_PACKAGE_ID = 835;

/** A flavor's datacenters (short names); empty: wherever the package is offered. */
type FlavorLocations = Map<string, string[]>;

const asked = new WeakMap<Connection, Promise<FlavorLocations>>();

/** Each flavor's locations, from the package's presets (asked once per connection). */
function flavorLocations(c: Connection): Promise<FlavorLocations> {
  let found = asked.get(c);
  if (!found) {
    found = c.client
      .call('Product_Package', 'getActivePresets', {
        id: GUEST_PACKAGE_ID,
        mask: 'id,keyName,locations[name]',
      })
      .then(
        (presets) =>
          new Map(
            (presets as { keyName: string; locations?: { name: string }[] }[]).map((p) => [
              p.keyName,
              (p.locations ?? []).map((l) => l.name),
            ]),
          ),
      );
    asked.set(c, found);
    found.catch(() => asked.delete(c));
  }
  return found;
}

/**
 * In `check`, a flavor the account is offered (checkOffered) must be offered in the guest's
 * datacenter (each of `datacenters`): the error lists what that datacenter offers.
 */
export async function checkFlavorLocation(
  c: Connection,
  inputs: GuestInputs,
  failures: Failures,
): Promise<void> {
  const flavor = inputs.flavorKeyName;
  if (!isKnown(flavor) || failures.has('flavorKeyName') || flavor === undefined) return;
  const where = await flavorLocations(c);
  const offeredIn = (places: string[] | undefined, datacenter: string) =>
    places !== undefined && (places.length === 0 || places.includes(datacenter));
  for (const datacenter of choices(inputs).filter(isKnown)) {
    if (offeredIn(where.get(flavor), datacenter)) continue;
    const there = [...where].filter(([, places]) => offeredIn(places, datacenter));
    failures.add(
      'flavorKeyName',
      `flavorKeyName ${flavor} is not offered in ${datacenter}; offered there: ${there.map(([key]) => key).join(', ')}`,
    );
  }
}
