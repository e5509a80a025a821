/**
 * Svc_Virtual_Guest_Block_Device_Template_Group as the reference client's image manager reads
 * it (softlayer-python `ImageManager.get_image`: name, note, global identifier, datacenters,
 * status, the capture's transaction); the account lists its own templates (public ones are
 * listed by `getPublicImages`); a guest shows the template it was ordered from.
 */
import { datacenterById } from '../../catalog';
import { formatApiDate } from '../../dates';
import { timedTransaction } from '../transaction-view';
import { defineType, definePlainType, extendType, type ViewContext } from '../../schema';
import type { AccountRec } from '../account/model';
import { sized, type GuestRec } from '../virtual-guest/model';
import { isCaptured, visibleImages, type ImageRec } from './model';

definePlainType('Svc_Virtual_Guest_Block_Device_Template_Group_Status', ['keyName', 'name']);

/** The capture's transaction while it runs (also once done, with `always`). */
export function captureTransaction(image: ImageRec, now: number, always = false) {
  if (isCaptured(image, now) && !always) return undefined;
  const status = { name: 'CLOUD_CREATE_ARCHIVE', friendlyName: 'Create Image Template' };
  const group = { name: 'Cloud Image Capture', averageTimeToComplete: '10' };
  return { ...timedTransaction(image, now, status, group), guestId: image.sourceGuestId };
}

const status = (image: ImageRec, ctx: ViewContext) =>
  isCaptured(image, ctx.now)
    ? { keyName: 'ACTIVE', name: 'Active' }
    : { keyName: 'CREATING', name: 'Creating' };

defineType<ImageRec>('Svc_Virtual_Guest_Block_Device_Template_Group', {
  locals: {
    id: (i) => i.id,
    accountId: (i) => i.accountId || undefined,
    name: (i) => i.name,
    note: (i) => i.note,
    createDate: (i) => formatApiDate(i.createDate),
    publicFlag: (i) => (i.publicFlag ? 1 : 0),
    statusId: (i, ctx) => (isCaptured(i, ctx.now) ? 1 : 2),
    summary: (i) => i.note ?? i.name,
    transactionId: (i, ctx) => (isCaptured(i, ctx.now) ? undefined : i.transactionId),
  },
  relations: {
    datacenters: {
      type: 'Svc_Location',
      many: true,
      get: (i) => i.datacenterIds.map(datacenterById).filter((d) => d !== undefined),
    },
    status: { type: 'Svc_Virtual_Guest_Block_Device_Template_Group_Status', get: status },
    transaction: {
      type: 'Svc_Provisioning_Version1_Transaction',
      get: (i, ctx) => captureTransaction(i, ctx.now),
    },
  },
  onDemand: {
    globalIdentifier: (i) => i.globalIdentifier,
    imageTypeKeyName: () => 'SYSTEM',
    blockDevicesDiskSpaceTotal: (i) => i.diskGbs.reduce((a, b) => a + b, 0) * 1024 ** 3,
    datacenterCount: (i) => i.datacenterIds.length,
  },
});

extendType<AccountRec>('Svc_Account', {
  relations: {
    privateBlockDeviceTemplateGroups: {
      type: 'Svc_Virtual_Guest_Block_Device_Template_Group',
      many: true,
      get: (a, ctx) => ctx.store.by('images', 'accountId', a.id),
    },
    // The account's own templates, private and shared (public ones: getPublicImages).
    blockDeviceTemplateGroups: {
      type: 'Svc_Virtual_Guest_Block_Device_Template_Group',
      many: true,
      get: (a, ctx) => ctx.store.by('images', 'accountId', a.id),
    },
  },
  onDemand: {
    privateBlockDeviceTemplateGroupCount: (a, ctx) =>
      ctx.store.countBy('images', 'accountId', a.id),
    blockDeviceTemplateGroupCount: (a, ctx) => ctx.store.countBy('images', 'accountId', a.id),
  },
});

extendType<GuestRec>('Svc_Virtual_Guest', {
  relations: {
    blockDeviceTemplateGroup: {
      type: 'Svc_Virtual_Guest_Block_Device_Template_Group',
      // As the guest runs now: a finished reload may have changed its template.
      get: (g, ctx) => {
        const id = sized(g, ctx.now).imageTemplateId;
        return id === undefined
          ? undefined
          : visibleImages(ctx.store, g.accountId).find((i) => i.id === id);
      },
    },
  },
});
