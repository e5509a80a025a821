/**
 * Image templates (`Svc_Virtual_Guest_Block_Device_Template_Group`): private ones captured from
 * a guest (`Virtual_Guest.createArchiveTransaction`, whose transaction runs until `readyAt`; the
 * template is usable from then on) and a few public ones every account sees. A template records
 * the operating system and boot disk of the guest it was captured from and the datacenters it is
 * available in (`setAvailableLocations`); a guest ordered from it (by its `globalIdentifier`)
 * runs that operating system, in one of those datacenters.
 */
import { createHash } from 'node:crypto';
import { DATACENTERS, findOs } from '../../catalog';
import { invalidValue, objectNotFound, publicFault } from '../../errors';
import { table, type RecordsOf, type Store } from '../../store';

export interface ImageRec {
  id: number;
  /** 0 for public templates. */
  accountId: number;
  globalIdentifier: string;
  name: string;
  note?: string;
  createDate: number;
  /** The capture finishes at this instant. */
  readyAt: number;
  transactionId: number;
  /** The concrete OS code of the captured guest. */
  osCode: string;
  /** The captured disks' sizes (GB), the boot disk first. */
  diskGbs: number[];
  datacenterIds: number[];
  sourceGuestId?: number;
  publicFlag: boolean;
}

export const tables = { images: table<ImageRec>(870001, ['accountId']) };

declare module '../../store' {
  interface Tables extends RecordsOf<typeof tables> {}
}

const stableUuid = (seed: string) => {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
};

/** Public templates: the same in every account and run, available everywhere. */
export const PUBLIC_IMAGES: readonly ImageRec[] = (
  [
    ['UBUNTU_24_64', 'Ubuntu 24.04 LTS base image'],
    ['DEBIAN_12_64', 'Debian 12 base image'],
    ['ROCKYLINUX_9_64', 'Rocky Linux 9 base image'],
  ] as const
).map(([osCode, name], i) => ({
  id: 1_900_001 + i,
  accountId: 0,
  globalIdentifier: stableUuid(`public-image-${osCode}`),
  name,
  note: 'Public image',
  createDate: Date.UTC(2026, 0, 5),
  readyAt: 0,
  transactionId: 0,
  osCode,
  diskGbs: [25],
  datacenterIds: DATACENTERS.map((d) => d.id),
  publicFlag: true,
}));

export const isCaptured = (image: ImageRec, now: number) => now >= image.readyAt;

/** The templates `accountId` may use or see: its own, then the public ones. */
export const visibleImages = (store: Store, accountId: number): ImageRec[] => [
  ...store.by('images', 'accountId', accountId),
  ...PUBLIC_IMAGES,
];

export const imageById = (store: Store, accountId: number, id: number) =>
  visibleImages(store, accountId).find((i) => i.id === id);

/**
 * The template a guest order names by global identifier: the account's own (captured) or a
 * public one, available in `datacenterId`. Faults name the property as the API does.
 */
export function orderableImage(
  store: Store,
  accountId: number,
  globalIdentifier: string,
  datacenterId: number,
  now: number,
  field: string,
): ImageRec {
  const image = visibleImages(store, accountId).find(
    (i) => i.globalIdentifier === globalIdentifier,
  );
  if (!image)
    throw invalidValue(
      `Invalid value provided for '${field}': no image template ${globalIdentifier}.`,
    );
  if (!isCaptured(image, now))
    throw publicFault(
      `Image template ${image.id} is still being captured; order from it once it is done.`,
    );
  if (!image.datacenterIds.includes(datacenterId)) {
    const names = image.datacenterIds.map((id) => DATACENTERS.find((d) => d.id === id)?.name);
    throw publicFault(
      `Image template ${image.id} is not available in the datacenter ordered; it is in ${names.join(', ') || 'none'} (setAvailableLocations).`,
    );
  }
  if (!findOs(image.osCode)) throw objectNotFound(image.id);
  return image;
}

export const newGlobalIdentifier = (store: Store, id: number) =>
  stableUuid(`image-${id}-${store.nextSubId()}`);
