/**
 * `Virtual_Guest.reloadOperatingSystem(token, config)`: reinstalls the guest's operating system
 * in place. `token` 'FORCE' reloads without the confirmation round trip (which is not modeled);
 * `config` (a Svc_Container_Hardware_Server_Configuration) may name the new operating system by
 * its item price (`itemPrices: [{ id }]`, a price of category `os`), or an image template to
 * reinstall from (`imageTemplateId`, the template's id, as the reference client's
 * `reload_instance(image_id=...)` sends it: one the account sees, captured, available in the
 * guest's datacenter; the guest then runs the template's OS and shows it as its
 * `blockDeviceTemplateGroup`; an OS price instead makes it a stock guest again), and the SSH keys
 * to install (`sshKeyIds`, replacing the old ones). The reload is a transaction like provisioning (see
 * `reloadRunning` in ./model.ts): the guest is halted and shows it as its active transaction and
 * as `lastOperatingSystemReload` until it is done; it keeps its id, addresses, billing item, size,
 * tags, notes and user data (set with `setUserMetadata` first; cloud-init runs it again), and its
 * primary disk is erased. Refused while a transaction runs. The billing item is not repriced.
 */
import { OPERATING_SYSTEMS, osPrice, type OperatingSystem } from '../../catalog';
import { invalidParams, invalidValue, publicFault } from '../../errors';
import { readInt } from '../../validators';
import { imageById, orderableImage, type ImageRec } from '../image-template/model';
import { expectArgs, ok, type AuthedContext } from '../context';
import type { MethodDef } from '../service';
import { checkSshKeyIds } from '../ssh-key/model';
import { activeTransaction, sized, type GuestRec } from './model';

export const CONFIG_KEYS = new Set([
  'complexType',
  'itemPrices',
  'sshKeyIds',
  'imageTemplateId',
  'customProvisionScriptUri',
]);

const isStruct = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The operating system an `itemPrices` list names, if any. */
export function osOfPrices(prices: unknown): OperatingSystem | undefined {
  if (prices === undefined) return undefined;
  if (!Array.isArray(prices) || !prices.every(isStruct))
    throw invalidParams('reloadOperatingSystem: config.itemPrices must be a list of { id }.');
  let chosen: OperatingSystem | undefined;
  for (const { id } of prices) {
    const os = OPERATING_SYSTEMS.find((o) => osPrice(o).id === Number(id));
    if (!os)
      throw publicFault(
        `Item price ${String(id)} is not an operating system price; a reload can change only the operating system.`,
      );
    chosen = os;
  }
  return chosen;
}

export function keyIdsOf(ctx: AuthedContext, ids: unknown): number[] | undefined {
  if (ids === undefined) return undefined;
  if (!Array.isArray(ids) || !ids.every((id) => Number.isInteger(id)))
    throw invalidParams('reloadOperatingSystem: config.sshKeyIds must be a list of integer ids.');
  checkSshKeyIds(ctx, ids as number[]);
  return ids as number[];
}

/** The template `config.imageTemplateId` names, usable by the guest as an order would use it. */
function reloadImage(ctx: AuthedContext, guest: GuestRec, value: unknown): ImageRec {
  const id = readInt(value, 'config.imageTemplateId');
  const image = imageById(ctx.store, guest.accountId, id);
  if (!image)
    throw invalidValue(
      `Invalid value provided for 'config.imageTemplateId': no image template ${id}.`,
    );
  return orderableImage(
    ctx.store,
    guest.accountId,
    image.globalIdentifier,
    guest.datacenterId,
    ctx.now,
    'config.imageTemplateId',
  );
}

export function reloadMethod(
  loadGuest: (ctx: AuthedContext) => GuestRec,
  readyAt: (ctx: AuthedContext) => number,
): MethodDef {
  return {
    handler: async (ctx) => {
      expectArgs(ctx, ['token', 'config'], 0);
      const guest = sized(loadGuest(ctx), ctx.now);
      if (ctx.args[0] !== 'FORCE')
        throw publicFault(
          "reloadOperatingSystem: pass 'FORCE' as the token to reload without confirmation.",
        );
      const config = ctx.args[1] ?? {};
      if (!isStruct(config)) throw invalidParams('reloadOperatingSystem: config must be a struct.');
      const unknown = Object.keys(config).find((key) => !CONFIG_KEYS.has(key));
      if (unknown) throw publicFault(`reloadOperatingSystem: config.${unknown} is not supported.`);
      const os = osOfPrices(config.itemPrices);
      const image =
        config.imageTemplateId === undefined
          ? undefined
          : reloadImage(ctx, guest, config.imageTemplateId);
      if (os && image)
        throw publicFault(
          'reloadOperatingSystem: give config.itemPrices (an operating system) or config.imageTemplateId, not both.',
        );
      const sshKeyIds = keyIdsOf(ctx, config.sshKeyIds);
      const running = activeTransaction(guest, ctx.now);
      if (running) {
        const status = (running.transactionStatus as { name: string }).name;
        throw publicFault(
          `Virtual guest ${guest.id} has an active transaction (${status}); its operating system can be reloaded once that has finished.`,
        );
      }
      const reload = {
        transactionId: ctx.store.nextSubId(),
        createDate: ctx.now,
        readyAt: readyAt(ctx),
        osCode: image?.osCode ?? os?.aliasOf ?? os?.referenceCode ?? guest.osCode,
        sshKeyIds: sshKeyIds ?? guest.sshKeyIds,
        // The template it runs from then on: the one named, none after an OS price, else kept.
        ...(image ? { imageTemplateId: image.id } : os ? { imageTemplateId: null } : {}),
      };
      // The record folds in what an earlier reload left (sized), then carries the new one.
      await ctx.store.write([{ put: 'guests', record: { ...guest, reload, modifyDate: ctx.now } }]);
      return ok('OK');
    },
  };
}
