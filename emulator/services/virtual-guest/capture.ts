/**
 * Image templates captured from a guest, as the reference client captures one (`slcli vs
 * capture`: `Virtual_Guest.createArchiveTransaction(name, blockDevices, note)` with the guest's
 * disks but swap): the guest must be provisioned and idle; the template is private, available in
 * the guest's datacenter, runs the guest's operating system, and is usable once the capture's
 * transaction is done. Guests ordered from a template find it here (`imagesFor`).
 */
import { invalidValue, publicFault } from '../../errors';
import { checkNotes, listOf, readInt, readString, isStruct } from '../../validators';
import { expectArgs, one, type AuthedContext } from '../context';
import { newGlobalIdentifier, orderableImage, type ImageRec } from '../image-template/model';
import { captureTransaction } from '../image-template/types';
import type { MethodDef } from '../service';
import { activeTransaction, sized, type GuestRec } from './model';
import type { ImageFinder } from './template';

/** The caller's images a guest order may name (see checkGuestTemplate). */
export const imagesFor =
  (ctx: AuthedContext): ImageFinder =>
  (globalIdentifier, datacenterId) =>
    orderableImage(
      ctx.store,
      ctx.account.id,
      globalIdentifier,
      datacenterId,
      ctx.now,
      'blockDeviceTemplateGroup.globalIdentifier',
    );

export const archiveMethod = (loadGuest: (ctx: AuthedContext) => GuestRec): MethodDef => ({
  handler: async (ctx) => {
    expectArgs(ctx, ['groupName', 'blockDevices', 'note'], 2);
    const guest = sized(loadGuest(ctx), ctx.now);
    const running = activeTransaction(guest, ctx.now);
    if (running) {
      throw publicFault(
        `Virtual guest ${guest.id} has an active transaction; an image can be captured once it has finished.`,
      );
    }
    const name = readString(ctx.args[0], 'groupName').trim();
    if (name === '' || name.length > 100)
      throw invalidValue("Invalid value provided for 'groupName': 1 to 100 characters.");
    const disks = listOf(ctx.args[1], 'blockDevices').map((entry, i) => {
      const id = readInt(isStruct(entry) ? entry.id : undefined, `blockDevices[${i}].id`);
      const disk = guest.blockDevices.find((d) => d.id === id);
      if (!disk)
        throw invalidValue(
          `Invalid value provided for 'blockDevices[${i}].id': ${id} is no disk of guest ${guest.id} (swap is not captured).`,
        );
      return disk;
    });
    if (!disks.some((d) => d.device === '0'))
      throw invalidValue("'blockDevices' must include the guest's boot disk (device 0).");
    const id = ctx.store.nextId('images');
    const image: ImageRec = {
      id,
      accountId: ctx.account.id,
      globalIdentifier: newGlobalIdentifier(ctx.store, id),
      name,
      note: ctx.args[2] === undefined || ctx.args[2] === null ? undefined : checkNotes(ctx.args[2]),
      createDate: ctx.now,
      readyAt: ctx.now + ctx.settings.provisioningDelayMs,
      transactionId: ctx.store.nextSubId(),
      osCode: guest.osCode,
      diskGbs: disks.map((d) => d.capacity),
      datacenterIds: [guest.datacenterId],
      sourceGuestId: guest.id,
      publicFlag: false,
    };
    await ctx.store.write([{ put: 'images', record: image }]);
    return one(
      ctx,
      'Svc_Provisioning_Version1_Transaction',
      captureTransaction(image, ctx.now, true),
    );
  },
});
