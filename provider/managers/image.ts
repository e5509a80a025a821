import type { Client } from '../client';
import { unlessNotFound } from './not-found';

/**
 * Image templates (`Svc_Virtual_Guest_Block_Device_Template_Group`) as the reference client
 * handles them (softlayer-python `ImageManager` and `VSManager.capture`): captured from a guest's
 * disks (never its swap, metadata or CD devices; the boot disk alone unless asked for all),
 * listed (the account's private ones, the public ones), their name and note edited, the
 * datacenters they are available in set, deleted.
 */

export interface ImageTemplate {
  id: number;
  name: string;
  note?: string;
  globalIdentifier?: string;
  createDate?: string;
  publicFlag?: number;
  accountId?: number;
  status?: { keyName: string; name?: string };
  datacenters?: { id: number; name: string }[];
  blockDevicesDiskSpaceTotal?: number;
  transactionId?: number;
}

export const IMAGE_MASK =
  'mask[id,name,note,globalIdentifier,createDate,publicFlag,accountId,status.keyName,datacenters[id,name],blockDevicesDiskSpaceTotal,transactionId]';

/** A guest's block device as the capture reads it. */
interface BlockDevice {
  id: number;
  device: string;
  mountType?: string;
  diskImage?: { metadataFlag?: boolean; type?: { keyName?: string } };
}

/** The disks `slcli vs capture` captures: no swap, metadata or CD; the boot disk unless `all`. */
export function disksToCapture(devices: BlockDevice[], all: boolean): { id: number }[] {
  return devices
    .filter(
      (d) =>
        !d.diskImage?.metadataFlag &&
        d.diskImage?.type?.keyName !== 'SWAP' &&
        d.mountType !== 'CD' &&
        (all || String(d.device) === '0'),
    )
    .map((d) => ({ id: d.id }));
}

export const GROUP = 'Virtual_Guest_Block_Device_Template_Group';

export class ImageManager {
  constructor(private readonly client: Client) {}

  /** Starts the capture of the guest's disks; answers its transaction. */
  async capture(
    guestId: number,
    options: { name: string; note: string; additionalDisks: boolean },
  ): Promise<{ id: number }> {
    const guest = (await this.client.call('Virtual_Guest', 'getObject', {
      id: guestId,
      mask: 'mask[id,blockDevices[id,device,mountType,diskImage[id,metadataFlag,type.keyName]]]',
    })) as { blockDevices?: BlockDevice[] };
    const disks = disksToCapture(guest.blockDevices ?? [], options.additionalDisks);
    return (await this.client.call('Virtual_Guest', 'createArchiveTransaction', {
      id: guestId,
      args: [options.name, disks, options.note],
    })) as { id: number };
  }

  /** The template, or undefined once it is gone (another account's reads as gone). */
  findTemplate(id: number, mask = IMAGE_MASK): Promise<ImageTemplate | undefined> {
    return unlessNotFound(
      this.client.call(GROUP, 'getObject', { id, mask }) as Promise<ImageTemplate>,
    );
  }

  async getTemplate(id: number, mask = IMAGE_MASK): Promise<ImageTemplate> {
    return (await this.client.call(GROUP, 'getObject', { id, mask })) as ImageTemplate;
  }

  /** The account's private templates, all or those an object filter's conditions keep. */
  async listPrivate(
    where: Record<string, unknown> = {},
    mask = IMAGE_MASK,
  ): Promise<ImageTemplate[]> {
    return (await this.client.call('Account', 'getPrivateBlockDeviceTemplateGroups', {
      mask,
      filter: { privateBlockDeviceTemplateGroups: where },
    })) as ImageTemplate[];
  }

  /** The template of this global identifier the account sees: its own, else a public one. */
  async findByGlobalIdentifier(globalIdentifier: string): Promise<ImageTemplate[]> {
    const where = { globalIdentifier: { operation: globalIdentifier } };
    const own = await this.listPrivate(where);
    return own.length > 0 ? own : this.listPublic(where);
  }

  /** The public templates every account sees, all or those the conditions keep. */
  async listPublic(where: Record<string, unknown> = {}, mask = IMAGE_MASK) {
    return (await this.client.call(GROUP, 'getPublicImages', {
      mask,
      ...(Object.keys(where).length > 0 ? { filter: where } : {}),
    })) as ImageTemplate[];
  }

  async edit(id: number, template: { name?: string; note?: string }): Promise<void> {
    await this.client.call(GROUP, 'editObject', { id, args: [template] });
  }

  /** Makes the template available in exactly these datacenters (by id). */
  async setLocations(id: number, datacenterIds: number[]): Promise<void> {
    await this.client.call(GROUP, 'setAvailableLocations', {
      id,
      args: [datacenterIds.map((d) => ({ id: d }))],
    });
  }

  async deleteTemplate(id: number): Promise<void> {
    await this.client.call(GROUP, 'deleteObject', { id });
  }
}
