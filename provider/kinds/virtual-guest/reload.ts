import { guests } from './guests';
import { ImageManager, WaitTimeoutError, type VirtualGuest } from '../../managers';
import { outcomeWindowMs, type Connection } from '../../framework/connection';
import { createOnce, writeIdempotent } from '../../framework/exactly-once';
import { changedBetween, fieldsWhere } from '../../framework/fields';
import { say, sayOnce } from '../../framework/log';
import type { Failures } from '../../framework/failures';
import { sameOs, sameUserData } from './api-forms';
import { progressOf, readyWaitMs } from './observe';
import type { OperationRequest } from '../../framework/operation';
import { PLACEMENT_FIELDS, placementReplaces } from './placement';
import { priceOrder, type Price } from './pricing';
import { quotedInPlace } from './dedicated-host';
import { GUEST_FIELDS } from './fields';
import { REPLACE_FIELDS, type GuestInputs, type GuestProps } from './inputs';

/**
 * `onImageChange: reload`: a change of the OS or image template, user data or SSH keys reinstalls
 * the guest in place (`Virtual_Guest.reloadOperatingSystem`, the user data set first; from the
 * declared image template when there is one, by its id) instead of replacing it:
 * same id, addresses and billing item; the primary disk is erased. The reload is sent at most
 * once: before sending, the guest is read (a reload of an earlier run may be running or done),
 * and a reload whose answer is lost is looked for (a newer `lastOperatingSystemReload`), never
 * sent again. Then the wait follows its transaction like provisioning.
 */

/** The fields an OS reload changes in place. */
export const RELOAD_FIELDS: readonly string[] = fieldsWhere(GUEST_FIELDS, 'reloads', true);

/** The replace fields besides where the guest is, which placement.ts decides. */
const REPLACING = REPLACE_FIELDS.filter((field) => !PLACEMENT_FIELDS.includes(field));

/** The changed fields that replace the guest (none when a reload makes them all). */
export function replacedBy(olds: GuestProps, news: GuestProps) {
  const changed = [
    ...changedBetween(GUEST_FIELDS, olds, news, REPLACING),
    ...placementReplaces(olds, news),
  ];
  if (news.onImageChange !== 'reload') return changed;
  return changed.some((field) => !RELOAD_FIELDS.includes(field)) ? changed : [];
}

/** The changed fields an OS reload makes in place. */
export const reloadedBy = (olds: GuestProps, news: GuestProps): string[] =>
  news.onImageChange === 'reload' && replacedBy(olds, news).length === 0
    ? changedBetween(GUEST_FIELDS, olds, news, RELOAD_FIELDS)
    : [];

/** Printed by `diff`: not a BILLING line, the bill does not change. */
export function announceReload(name: string, fields: string[]): void {
  sayOnce(
    `VirtualGuest "${name}" is reloaded in place (changed: ${fields.join(', ')}): same guest, id, addresses and bill; the primary disk is erased`,
  );
}

/**
 * In `check`: a reload keeps the guest's billing item, so it cannot move to an OS priced
 * otherwise (a licensed one); that needs a new guest, at the new price.
 */
export async function checkReloadPrice(
  c: Connection,
  olds: GuestProps,
  inputs: GuestInputs,
  price: Price,
  failures: Failures,
): Promise<void> {
  const fields = reloadedBy(olds, inputs);
  const field = fields.find((f) => f === 'imageTemplateId' || f === 'operatingSystemReferenceCode');
  if (!field) return;
  // The image the guest runs now: its template, else its OS code (an output with a template).
  const template = olds.imageTemplateId as string | undefined;
  const image = {
    imageTemplateId: template,
    operatingSystemReferenceCode: template
      ? undefined
      : (olds.operatingSystemReferenceCode as string | undefined),
  };
  const before = await priceOrder(guests(c), { ...quotedInPlace(inputs), ...image });
  if (Math.abs(before.hourly - price.hourly) < 1e-9) return;
  const shown = (v: { imageTemplateId?: unknown; operatingSystemReferenceCode?: unknown }) =>
    v.imageTemplateId
      ? `image template ${String(v.imageTemplateId)}`
      : String(v.operatingSystemReferenceCode);
  failures.add(
    field,
    `${field}: ${shown(image)} -> ${shown(inputs)} changes the price ($${before.hourly.toFixed(4)}/hour -> $${price.hourly.toFixed(4)}/hour), and onImageChange: reload keeps the guest's bill; set onImageChange: replace to order a new guest at the new price`,
  );
}

const sameKeys = (guest: VirtualGuest, declared: number[]) =>
  JSON.stringify((guest.sshKeys ?? []).map((k) => k.id).sort((a, b) => a - b)) ===
  JSON.stringify(declared);

/**
 * Whether the guest already is what the reload would make it: a reload of an earlier run landed
 * (a newer reload than the state recorded, when only the user data changed).
 */
function alreadyReloaded(
  guest: VirtualGuest,
  olds: GuestProps,
  inputs: GuestInputs,
  fields: string[],
) {
  const os = sameOs(inputs.operatingSystemReferenceCode, guest.operatingSystemReferenceCode);
  const template = (inputs.imageTemplateId ?? undefined) === templateOf(guest);
  if (!os || !template || !sameKeys(guest, inputs.sshKeyIds)) return false;
  if (fields.some((f) => f !== 'userData')) return true;
  const reload = guest.lastOperatingSystemReload?.id ?? null;
  return olds.osReloadId !== undefined && reload !== null && reload !== olds.osReloadId;
}

/** The global identifier of the template the guest runs from, if any. */
const templateOf = (guest: VirtualGuest) =>
  guest.blockDeviceTemplateGroup?.globalIdentifier ?? undefined;

/**
 * What the reload installs: the declared template (by its id), or the declared OS (its price)
 * when the guest runs another OS or runs from a template now; else the OS it has.
 */
async function imageConfig(c: Connection, guest: VirtualGuest, inputs: GuestInputs) {
  const template = inputs.imageTemplateId;
  if (template) {
    const [found] = await c.use(ImageManager).findByGlobalIdentifier(String(template));
    if (!found)
      throw new Error(`imageTemplateId ${String(template)} is no image template this account sees`);
    return { imageTemplateId: found.id };
  }
  const os = inputs.operatingSystemReferenceCode;
  return sameOs(os, guest.operatingSystemReferenceCode) && templateOf(guest) === undefined
    ? {}
    : { itemPrices: [{ id: await osPriceId(c, String(os)) }] };
}

/** The item price of an OS code (`getCreateObjectOptions`), for the reload's config. */
async function osPriceId(c: Connection, code: string): Promise<number> {
  const options = await guests(c).getCreateOptions();
  const option = options.operatingSystems.find(
    (o) => o.template.operatingSystemReferenceCode === code,
  );
  if (option?.itemPrice?.id === undefined)
    throw new Error(`operatingSystemReferenceCode ${code} has no price this account is offered`);
  return option.itemPrice.id;
}

/** Reloads the guest when the inputs ask for it (`reloadedBy`); see the module comment. */
export async function reloadInPlace(
  c: Connection,
  id: number,
  olds: GuestProps,
  inputs: GuestInputs,
  request?: OperationRequest,
): Promise<void> {
  const fields = reloadedBy(olds, inputs);
  if (fields.length === 0) return;
  const what = `VirtualGuest "${inputs.resourceName}" (id ${id})`;
  const onProgress = progressOf(what);
  // A transaction running (an earlier run's reload among them) is waited for, never doubled.
  await guests(c).waitForIdle(id, readyWaitMs(inputs, request), onProgress);
  const guest = await guests(c).getInstance(id);
  if (alreadyReloaded(guest, olds, inputs, fields)) {
    say(`${what}: already reloaded with what is declared (an earlier run's reload); nothing sent`);
    return;
  }
  if (!sameUserData(inputs.userData, guest.userData?.[0]?.value)) {
    await writeIdempotent({
      what: `${what} user data`,
      write: () => guests(c).setUserData(id, inputs.userData),
      done: async () =>
        sameUserData(inputs.userData, (await guests(c).getInstance(id)).userData?.[0]?.value),
      windowMs: outcomeWindowMs(),
    });
  }
  const before = guest.lastOperatingSystemReload?.id;
  const config = { sshKeyIds: inputs.sshKeyIds, ...(await imageConfig(c, guest, inputs)) };
  say(`${what}: reloading in place (${fields.join(', ')}); the primary disk is erased`);
  await createOnce({
    what: `${what} OS reload`,
    write: async () => {
      await guests(c).reloadOperatingSystem(id, config);
      return true;
    },
    find: async () => {
      const now = (await guests(c).getInstance(id, 'id,lastOperatingSystemReload.id'))
        .lastOperatingSystemReload?.id;
      return now && now !== before ? true : undefined;
    },
    windowMs: outcomeWindowMs(),
    nextRun: 'The next `pulumi up` reads the guest again before it reloads it.',
  });
  try {
    await guests(c).waitForReload(id, before, {
      timeoutMs: readyWaitMs(inputs, request),
      onProgress,
    });
  } catch (err) {
    if (!(err instanceof WaitTimeoutError)) throw err;
    throw new Error(
      `${err.message}: the reload was sent; the next \`pulumi up\` waits for it again (no second reload)`,
    );
  }
  say(`${what}: reloaded in place (${fields.join(', ')})`);
}
