/**
 * Svc_Virtual_Guest: ordering (the order template is checked here, see the end of the file),
 * reading, editing, tagging, upgrade prices, OS reloads (./reload.ts), power and cancelling guests.
 */
import {
  CPU_OPTIONS,
  DATACENTERS,
  DISK_SIZES,
  EXTRA_DISK_SIZES,
  MEMORY_OPTIONS,
  NETWORK_SPEEDS,
  OPERATING_SYSTEMS,
  cpuPrice,
  diskPrice,
  itemPrice,
  memoryPrice,
  money,
  monthlyFromHourly,
  networkPrice,
  osPrice,
} from '../../catalog';
import { invalidParams, propertyNotValid, publicFault } from '../../errors';
import { typeDef } from '../../schema';
import { checkDomain, checkHostname, checkNotes, optionalFlag } from '../../validators';
import {
  expectArgs,
  list,
  ok,
  one,
  owned,
  requireId,
  stringArg,
  type AuthedContext,
} from '../context';
import { volumesAllowing } from '../network-storage/model';
import { GUEST_PACKAGE, guestFlavors } from '../product-package/model';
import { serviceFolder, type MethodDef } from '../service';
import {
  buildGuest,
  isProvisioned,
  removeGuestOps,
  retagged,
  sized,
  tables,
  tagsByName,
  upgradePrices,
  type GuestRec,
} from './model';
import { requireRoom } from './capacity';
import { GUEST_ORDER, guestOrder } from './guest-order';
import { reloadMethod } from './reload';
import { archiveMethod, imagesFor } from './capture';
import { checkAccountRefs } from './account-refs';
import { atAccountPrices, checkGuestTemplate } from './template';
import './types';
import { UPGRADE, upgradeOrder } from './upgrade-order';

const TYPE = 'Svc_Virtual_Guest';

const loadGuest = (ctx: AuthedContext): GuestRec => {
  const id = requireId(ctx);
  return owned(ctx, ctx.store.get('guests', id), id);
};

const readyAt = (ctx: AuthedContext) => ctx.now + ctx.settings.provisioningDelayMs;

async function update(
  ctx: AuthedContext,
  guest: GuestRec,
  changes: Partial<GuestRec>,
): Promise<void> {
  await ctx.store.write([{ put: 'guests', record: { ...guest, ...changes, modifyDate: ctx.now } }]);
}

/** Power calls need a provisioned guest; the state survives restarts like everything else. */
function power(state: GuestRec['power']): MethodDef {
  return {
    handler: async (ctx) => {
      expectArgs(ctx, []);
      const guest = loadGuest(ctx);
      if (!isProvisioned(guest, ctx.now)) {
        throw publicFault(
          `Virtual guest ${guest.id} is still being provisioned; power operations are not available yet.`,
        );
      }
      await update(ctx, guest, { power: state });
      return ok(true);
    },
  };
}

const EDITABLE = new Set(['hostname', 'domain', 'notes']);

function createOptions(): Record<string, unknown> {
  const option = (price: ReturnType<typeof cpuPrice>, template: Record<string, unknown>) => ({
    itemPrice: itemPrice(price),
    template,
  });
  return {
    processors: CPU_OPTIONS.map((cpus) => option(cpuPrice(cpus), { startCpus: cpus })),
    memory: MEMORY_OPTIONS.map((mb) => option(memoryPrice(mb), { maxMemory: mb })),
    operatingSystems: OPERATING_SYSTEMS.map((os) =>
      option(osPrice(os), { operatingSystemReferenceCode: os.referenceCode }),
    ),
    datacenters: DATACENTERS.map((dc) => ({ template: { datacenter: { name: dc.name } } })),
    // The presets, ordered by `supplementalCreateObjectOptions.flavorKeyName` instead of a size.
    flavors: guestFlavors().map((f) => ({
      flavor: { keyName: f.keyName, name: f.keyName.replace('_', '-') },
      template: { supplementalCreateObjectOptions: { flavorKeyName: f.keyName } },
    })),
    networkComponents: NETWORK_SPEEDS.map((speed) =>
      option(networkPrice(speed), { networkComponents: [{ maxSpeed: speed }] }),
    ),
    // The boot disk (device 0) and the data disks (devices 2-5; 1 is swap), local or SAN.
    blockDevices: [true, false].flatMap((local) =>
      ['0', '2', '3', '4', '5'].flatMap((device, position) =>
        (device === '0' ? DISK_SIZES : EXTRA_DISK_SIZES).map((gb) =>
          option(diskPrice(gb, local, position), {
            blockDevices: [{ device, diskImage: { capacity: gb } }],
            localDiskFlag: local,
          }),
        ),
      ),
    ),
  };
}

/** `getUpgradeItemPrices(includeDowngradeItemPrices)`: what the guest may be upgraded to. */
const getUpgradeItemPrices: MethodDef = {
  handler: (ctx) => {
    expectArgs(ctx, ['includeDowngradeItemPrices'], 0);
    const downgrades = optionalFlag(ctx.args[0], 'includeDowngradeItemPrices');
    const guest = sized(loadGuest(ctx), ctx.now);
    return list(ctx, 'Svc_Product_Item_Price', upgradePrices(guest, downgrades), null);
  },
};

export const virtualGuest = serviceFolder({
  tables,
  orders: { [GUEST_ORDER]: guestOrder, [UPGRADE]: upgradeOrder },
  services: {
    Virtual_Guest: {
      load: loadGuest,
      methods: {
        createObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const order = atAccountPrices(ctx, checkGuestTemplate(ctx.args[0], imagesFor(ctx)));
            checkAccountRefs(ctx, [order]);
            requireRoom(ctx, [order]);
            const { guest, ops } = buildGuest(ctx.store, ctx.account.id, order, {
              now: ctx.now,
              readyAt: readyAt(ctx),
              userId: ctx.user.id,
            });
            await ctx.store.write(ops);
            return one(ctx, TYPE, guest);
          },
        },
        createObjects: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObjects']);
            const templates = ctx.args[0];
            if (!Array.isArray(templates) || templates.length === 0) {
              throw invalidParams(
                'Virtual_Guest::createObjects(templateObjects): expected a non-empty array of templates.',
              );
            }
            const orders = templates.map((t) =>
              atAccountPrices(ctx, checkGuestTemplate(t, imagesFor(ctx))),
            );
            checkAccountRefs(ctx, orders);
            requireRoom(ctx, orders);
            const tagCache = tagsByName(ctx.store, ctx.account.id);
            const built = orders.map((order) =>
              buildGuest(ctx.store, ctx.account.id, order, {
                now: ctx.now,
                readyAt: readyAt(ctx),
                tagCache,
                userId: ctx.user.id,
              }),
            );
            await ctx.store.write(built.flatMap((b) => b.ops));
            return list(
              ctx,
              TYPE,
              built.map((b) => b.guest),
              null,
            );
          },
        },
        generateOrderTemplate: {
          handler: (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const order = atAccountPrices(ctx, checkGuestTemplate(ctx.args[0], imagesFor(ctx)));
            checkAccountRefs(ctx, [order]);
            const hourly = order.prices.reduce((sum, p) => sum + p.hourly, 0);
            return ok({
              complexType: GUEST_ORDER,
              location: String(order.datacenter.id),
              packageId: GUEST_PACKAGE.id,
              quantity: 1,
              useHourlyPricing: order.hourly,
              prices: order.prices.map(itemPrice),
              postTaxRecurringHourly: money(hourly, 4),
              postTaxRecurringMonthly: money(monthlyFromHourly(hourly), 2),
              sshKeys: order.sshKeyIds.length ? [{ sshKeyIds: order.sshKeyIds }] : [],
              virtualGuests: [{ hostname: order.hostname, domain: order.domain }],
            });
          },
        },
        getUpgradeItemPrices,
        createArchiveTransaction: archiveMethod(loadGuest),
        // The volumes that allow the guest (`slcli vs storage`), of one nasType if given.
        getAttachedNetworkStorages: {
          handler: (ctx) => {
            expectArgs(ctx, ['nasType'], 0);
            const guest = loadGuest(ctx);
            const nasType = ctx.args[0] === undefined ? undefined : stringArg(ctx, 0, 'nasType');
            const volumes = volumesAllowing(ctx, guest.accountId, guest.id, nasType);
            return list(ctx, 'Svc_Network_Storage', volumes, null);
          },
        },
        getCreateObjectOptions: {
          handler: (ctx) => {
            expectArgs(ctx, []);
            return ok(createOptions());
          },
        },
        editObject: {
          handler: async (ctx) => {
            expectArgs(ctx, ['templateObject']);
            const guest = loadGuest(ctx);
            const template = ctx.args[0];
            if (template === null || typeof template !== 'object' || Array.isArray(template)) {
              throw invalidParams('Virtual_Guest::editObject(templateObject): expected a struct.');
            }
            const changes: Partial<GuestRec> = {};
            const guestType = typeDef(TYPE);
            for (const [key, value] of Object.entries(template)) {
              if (key === 'complexType' || (key === 'id' && Number(value) === guest.id)) continue;
              if (!guestType.locals.has(key) && !guestType.relations.has(key))
                throw propertyNotValid(key, TYPE);
              if (!EDITABLE.has(key)) {
                throw publicFault(
                  `Property '${key}' of ${TYPE} cannot be changed with editObject; only hostname, domain and notes can.`,
                );
              }
              if (key === 'hostname') changes.hostname = checkHostname(value);
              if (key === 'domain') changes.domain = checkDomain(value);
              if (key === 'notes')
                changes.notes = value === null || value === '' ? undefined : checkNotes(value);
            }
            await update(ctx, guest, changes);
            return ok(true);
          },
        },
        setTags: {
          handler: async (ctx) => {
            expectArgs(ctx, ['tags']);
            const guest = loadGuest(ctx);
            const tags = stringArg(ctx, 0, 'tags');
            const { refs, ops } = retagged(ctx.store, ctx.account.id, tags, guest.tagRefs);
            await ctx.store.write([
              ...ops,
              { put: 'guests', record: { ...guest, tagRefs: refs, modifyDate: ctx.now } },
            ]);
            return ok(true);
          },
        },
        setUserMetadata: {
          handler: async (ctx) => {
            expectArgs(ctx, ['metadata']);
            const guest = loadGuest(ctx);
            const metadata = ctx.args[0];
            if (!Array.isArray(metadata) || !metadata.every((m) => typeof m === 'string')) {
              throw invalidParams(
                'Virtual_Guest::setUserMetadata(metadata): expected an array of strings.',
              );
            }
            await update(ctx, guest, { userData: metadata as string[] });
            return ok(true);
          },
        },
        deleteObject: {
          handler: async (ctx) => {
            expectArgs(ctx, []);
            const guest = loadGuest(ctx);
            await ctx.store.write(
              removeGuestOps(ctx.store, guest, ctx.now, ctx.settings.reclaimDelayMs),
            );
            return ok(true);
          },
        },
        reloadOperatingSystem: reloadMethod(loadGuest, readyAt),
        powerOn: power('RUNNING'),
        powerOff: power('HALTED'),
        powerOffSoft: power('HALTED'),
        powerCycle: power('RUNNING'),
        rebootSoft: power('RUNNING'),
        rebootHard: power('RUNNING'),
        rebootDefault: power('RUNNING'),
      },
    },
  },
});

declare module '../service' {
  interface ServiceFolders {
    virtualGuest: typeof virtualGuest;
  }
}
