import { StorageManager, type Volume, type VolumeSizing, type VolumeType } from '../../managers';
import { poll } from '../../client/poll';
import { outcomeWindowMs, freeWriteWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import { createVerb, differences, orderOnce, takeoverOf, thenHandOver } from '../order-once';
import { isNoteMarked } from '../../framework/creation-token';
import { noteMark, putMark } from '../../framework/handed-mark';
import type { InputsOf, StateOf } from '../../framework/fields';
import {
  goneForStack,
  kindProvider,
  type CheckRulesRequest,
  type CheckWithApiRequest,
  type CreateRequest,
  type DeleteRequest,
  type EditRequest,
  type PlanRequest,
} from '../../framework/kind-provider';
import { sayOnce } from '../../framework/log';
import { boundedWait, type OperationRequest } from '../../framework/operation';
import { initFailure } from '../../framework/runtime-provider';
import { containsUnknown, isKnown } from '../../framework/unknown';
import { creationToken } from '../../framework/creation-token';
import { IOPS, REPLACING, TIERS, VOLUME_FIELDS, isPerformance, type VolumeFields } from './fields';
import { checkSnapshots, growSnapshotSpace, keepSchedules } from './snapshots';
import { checkAddresses, keepAddresses } from './addresses';

/**
 * `BlockVolume` and `FileVolume`: a volume of the storage-as-a-service package, ordered once
 * (its order carries a creation token as its container identifier, so an order whose answer was
 * lost is found, never placed twice), waited for until provisioned (bounded by
 * `readyTimeoutMinutes` and the engine's deadline), resized in place by an upgrade order (a
 * smaller size is refused in check), with the guests allowed to reach it kept as declared, and
 * cancelled through its billing item: at once when hourly or asked, else at its anniversary.
 */

const KIND: Record<VolumeType, string> = { block: 'BlockVolume', file: 'FileVolume' };
const storage = (c: Connection) => c.use(StorageManager);

type Inputs = InputsOf<VolumeFields>;
type State = StateOf<VolumeFields>;

const sizing = (v: Partial<Inputs>): VolumeSizing => ({
  capacityGb: Number(v.capacityGb),
  ...(v.iops === undefined ? { tierIopsPerGb: v.tierIopsPerGb } : { iops: v.iops }),
});

const describeSizing = (v: Partial<Inputs>) =>
  `${v.capacityGb} GB, ${v.iops === undefined ? `${v.tierIopsPerGb} IOPS per GB` : `${v.iops} IOPS`}${v.snapshotCapacityGb ? `, ${v.snapshotCapacityGb} GB of snapshot space` : ''}`;

const money = (n: unknown, digits: number) =>
  typeof n === 'number' ? `$${n.toFixed(digits)}` : '$(unpriced)';
const cost = (v: Partial<State>) =>
  `${money(v.estimatedHourlyCost, 4)}/hour (${money(v.estimatedMonthlyCost, 2)}/month)`;

function priced(answer: Record<string, unknown>) {
  return {
    estimatedHourlyCost: Number(answer.postTaxRecurringHourly ?? 0),
    estimatedMonthlyCost: Number(answer.postTaxRecurringMonthly ?? 0),
  };
}

/**
 * Exactly one of tier and IOPS; IOPS in steps, per GB; never a smaller size than before; the
 * snapshot rules (./snapshots.ts), whose schedules it answers in their declared form.
 */
export function checkVolumeRules({ inputs, olds, failures }: CheckRulesRequest<VolumeFields>) {
  const snapshotSchedules = checkSnapshots(inputs, olds, failures) as Inputs['snapshotSchedules'];
  const { tierIopsPerGb, iops, capacityGb } = inputs;
  if ((tierIopsPerGb === undefined) === (iops === undefined)) {
    failures.add(
      'tierIopsPerGb',
      'give exactly one of tierIopsPerGb (an endurance volume) and iops (a performance volume)',
    );
  }
  if (typeof iops === 'number' && typeof capacityGb === 'number') {
    const max = Math.min(IOPS.max, capacityGb * IOPS.perGb);
    if (iops % IOPS.step !== 0 || iops > max)
      failures.add(
        'iops',
        `iops must be a multiple of ${IOPS.step} and at most ${max} for ${capacityGb} GB`,
      );
  }
  if (
    typeof capacityGb === 'number' &&
    typeof olds.capacityGb === 'number' &&
    capacityGb < olds.capacityGb
  ) {
    failures.add(
      'capacityGb',
      `capacityGb ${capacityGb} is smaller than the volume's ${olds.capacityGb} GB: a volume can only grow (the API refuses a smaller size); declare at least ${olds.capacityGb}, or replace the volume`,
    );
  }
  return { snapshotSchedules };
}

const storageKind = (performance: boolean) => (performance ? 'performance' : 'endurance');

/** How `v` differs from what an order of `inputs` makes, in what replaces a volume. */
const orderedOtherwise = (v: Volume, inputs: Partial<Inputs>) =>
  differences([
    ['datacenter', v.serviceResource?.datacenter?.name, inputs.datacenter],
    ['hourlyBilling', v.billingItem?.hourlyFlag ?? false, inputs.hourlyBilling ?? false],
    [
      'storage (iops or tierIopsPerGb)',
      storageKind(isPerformance(v)),
      storageKind(inputs.iops !== undefined),
    ],
    'osFormat' in inputs && ['osFormat', v.osType?.keyName, inputs.osFormat],
  ]);

/** Waits until the volume's transactions are done; the id is kept when the wait runs out. */
async function settled(
  c: Connection,
  what: string,
  id: number,
  inputs: Partial<Inputs>,
  request: OperationRequest | undefined,
  outs: Record<string, unknown>,
): Promise<Volume> {
  const timeoutMs = boundedWait(request, Number(inputs.readyTimeoutMinutes ?? 30) * 60_000);
  const { value, done } = await poll(
    () => storage(c).getVolume(id),
    (v) => (v.activeTransactionCount ?? 0) === 0,
    { timeoutMs, firstMs: 500, growth: 1.5, maxMs: 10_000 },
  );
  if (!done) {
    throw initFailure(
      `${what}: volume ${id} is not ready after ${Math.round(timeoutMs / 1000)} s; it is kept in the stack and the next \`pulumi up\` carries on with it`,
      String(id),
      { ...inputs, ...outs },
    );
  }
  return value;
}

/** Whether the volume shows every figure of the size it was asked to take. */
const resizedTo = (v: Volume, wanted: VolumeSizing) =>
  v.capacityGb === wanted.capacityGb &&
  (wanted.iops === undefined
    ? TIERS[v.storageTierLevel ?? ''] === wanted.tierIopsPerGb
    : Number(v.provisionedIops) === wanted.iops);

/**
 * The live volumes carrying the token, which were handed to a state, and how each differs from
 * what an order of `inputs` makes (the token is the URN's, so a replacement's create sees the
 * volume it replaces, which differs in what replaces it).
 */
const earlier = (c: Connection, inputs: Partial<Inputs>, token: string, what: string) => ({
  what,
  noun: 'volume',
  token,
  found: async () =>
    (await storage(c).findByIdentifier(token)).filter((v) => !v.billingItem?.cancellationDate),
  handed: (v: Volume) => isNoteMarked(v.notes),
  differs: (v: Volume) => orderedOtherwise(v, inputs),
});

/** Its handed mark: the last line of its notes (framework/handed-mark.ts). */
const handedMark = (c: Connection, id: number, notes: string | undefined) =>
  noteMark(
    `volume ${id}`,
    async () => (await storage(c).getVolume(id, 'id,notes')).notes,
    (note) => storage(c).editNotes(id, note),
    notes,
  );

export function volumeProvider(type: VolumeType) {
  const kind = KIND[type];
  const fields = VOLUME_FIELDS[type];
  const name = (v: Partial<State>) => `${kind} "${v.resourceName ?? ''}"`;

  async function order(c: Connection, inputs: Inputs, token: string) {
    return storage(c).orderContainer({
      type,
      datacenter: inputs.datacenter,
      hourly: inputs.hourlyBilling,
      osFormat: 'osFormat' in inputs ? String(inputs.osFormat) : undefined,
      containerIdentifier: token,
      snapshotGb: inputs.snapshotCapacityGb,
      ...sizing(inputs),
    });
  }

  /** Prices the order (or the resize) and says in the preview what it bills. */
  async function checkWithApi({
    connection: c,
    inputs,
    olds,
    failures,
  }: CheckWithApiRequest<VolumeFields>) {
    if (
      ![inputs.datacenter, inputs.capacityGb, inputs.tierIopsPerGb, inputs.iops].every(
        (v) => v === undefined || isKnown(v),
      )
    )
      return;
    const addresses = inputs.authorizedIpAddresses ?? [];
    if (!containsUnknown(addresses) && isKnown(inputs.datacenter))
      await checkAddresses(c, addresses, inputs.datacenter, failures);
    if (containsUnknown(inputs.snapshotCapacityGb)) return;
    const token = olds.creationToken ?? creationToken(inputs);
    try {
      // A new order at the declared size is priced as the volume bills once resized to it.
      const price = priced(await storage(c).verify(await order(c, inputs, token)));
      if (Object.keys(olds).length > 0) return { creationToken: token, ...price };
      const taken = await takeoverOf(earlier(c, inputs, token, name(inputs)));
      sayOnce(
        `BILLING create ${name(inputs)} ${createVerb('volume', taken, `orders a new ${type} volume`)}: ${describeSizing(inputs)} in ${inputs.datacenter}; ${inputs.hourlyBilling ? 'hourly' : 'monthly'}, ${cost(price)}`,
      );
      return { creationToken: token, adopts: taken.adopts, ...price };
    } catch (err) {
      const message = (err as Error).message;
      const field = /location|datacenter/i.test(message)
        ? 'datacenter'
        : /snapshot/i.test(message)
          ? 'snapshotCapacityGb'
          : 'capacityGb';
      failures.add(field, `${field}: the order cannot be priced: ${message}`);
    }
  }

  async function create({ connection: c, inputs, request }: CreateRequest<VolumeFields>) {
    const token = inputs.creationToken ?? creationToken(inputs);
    const manager = storage(c);
    const container = await order(c, inputs, token);
    const what = name(inputs);
    const volume = await orderOnce({
      ...earlier(c, inputs, token, what),
      place: () => manager.place(container),
    });
    const outs = { creationToken: token };
    // Its notes go with the handover, the create's last write.
    return thenHandOver(
      volume,
      handedMark(c, volume.id, inputs.notes),
      { ...inputs, ...outs },
      async () => {
        await settled(c, what, volume.id, inputs, request, outs);
        await manager.setGuestAccess(volume.id, inputs.authorizedGuestIds ?? [], true);
        await keepAddresses(c, volume.id, inputs.authorizedIpAddresses ?? []);
        await keepSchedules(c, volume.id, inputs.snapshotSchedules ?? []);
        return { id: volume.id, object: await manager.getVolume(volume.id), outs };
      },
      (message) =>
        `${what}: volume ${volume.id} was ordered, then ${message}; it is kept in the stack and the next \`pulumi up\` sets its notes, authorized hosts and snapshot schedules again`,
    );
  }

  async function edit({
    connection: c,
    id,
    inputs,
    olds,
    changed,
    request,
  }: EditRequest<VolumeFields>) {
    const manager = storage(c);
    const volumeId = Number(id);
    const what = `${name(olds)} (id ${id})`;
    // The size fields change by an upgrade order, not by the table's `update`: compared here.
    const resized = (['capacityGb', 'tierIopsPerGb', 'iops'] as const).some(
      (f) => inputs[f] !== olds[f],
    );
    if (resized) {
      const wanted = sizing(inputs);
      await writeIdempotent({
        what: `${what} resize to ${describeSizing(inputs)}`,
        write: async () => {
          await manager.place(await manager.upgradeContainer(volumeId, wanted));
        },
        done: async () => resizedTo(await manager.getVolume(volumeId), wanted),
        windowMs: outcomeWindowMs(),
        attempts: 1,
      });
      await settled(c, what, volumeId, inputs, request, {});
    }
    // Grown before the schedules are set: a schedule needs the space.
    if (
      inputs.snapshotCapacityGb !== undefined &&
      inputs.snapshotCapacityGb !== olds.snapshotCapacityGb
    )
      await growSnapshotSpace(c, volumeId, inputs.snapshotCapacityGb, what);
    // Its notes as declared with the handed mark: a volume a failed create kept is marked now.
    await putMark(handedMark(c, volumeId, inputs.notes));
    if (changed.includes('authorizedIpAddresses'))
      await keepAddresses(c, volumeId, inputs.authorizedIpAddresses ?? []);
    if (changed.includes('snapshotSchedules'))
      await keepSchedules(c, volumeId, inputs.snapshotSchedules ?? []);
    if (changed.includes('authorizedGuestIds')) {
      const now = new Set(inputs.authorizedGuestIds ?? []);
      const before =
        (await manager.getVolume(volumeId)).allowedVirtualGuests?.map((g) => g.id) ?? [];
      await manager.setGuestAccess(
        volumeId,
        before.filter((g) => !now.has(g)),
        false,
      );
      await manager.setGuestAccess(
        volumeId,
        [...now].filter((g) => !before.includes(g)),
        true,
      );
    }
  }

  /** A resize is an upgrade order, priced old and new; a change of kind (tier <-> IOPS) replaces. */
  async function plan({ olds, news, changed }: PlanRequest<VolumeFields>) {
    const switched = (olds.iops === undefined) !== (news.iops === undefined);
    const replaces = changed.filter(
      (f) =>
        (REPLACING as readonly string[]).includes(f) ||
        (switched && (f === 'iops' || f === 'tierIopsPerGb')),
    );
    const inPlace = changed.filter((f) => !replaces.includes(f));
    if (replaces.length > 0) {
      const ending = olds.hourlyBilling
        ? 'its hourly billing stops at the cancel'
        : 'a monthly volume is billed to its anniversary unless cancelImmediately';
      sayOnce(
        `BILLING replace ${name(olds)} (changed: ${replaces.join(', ')}): orders a new ${type} volume (${describeSizing(news)} in ${news.datacenter}; ${news.hourlyBilling ? 'hourly' : 'monthly'}) at ${cost(news)}, cancels the old one at ${cost(olds)} (${ending}); the new volume starts empty`,
      );
    } else if (
      inPlace.some(
        (f) =>
          f === 'capacityGb' || f === 'tierIopsPerGb' || f === 'iops' || f === 'snapshotCapacityGb',
      )
    ) {
      sayOnce(
        `BILLING upgrade ${name(olds)} in place (${describeSizing(olds)} -> ${describeSizing(news)}): ${cost(olds)} -> ${cost(news)}; the same volume, its data kept`,
      );
    }
    return { replaces, inPlace };
  }

  async function remove({ connection: c, id, state, request }: DeleteRequest<VolumeFields>) {
    const manager = storage(c);
    const volumeId = Number(id);
    const what = `${name(state)} (id ${id})`;
    const current = await manager.findVolume(volumeId);
    if (!current?.billingItem) return `${what} is already gone`;
    if ((current.activeTransactionCount ?? 0) > 0)
      await settled(c, what, volumeId, state, request, {});
    const immediate = current.billingItem.hourlyFlag || state.cancelImmediately === true;
    await writeIdempotent({
      what: `${what} cancel`,
      write: () => manager.cancel(current.billingItem!.id, immediate, 'Deleted by Pulumi'),
      done: async () => {
        const v = await manager.findVolume(volumeId);
        return v === undefined || v.billingItem?.cancellationDate !== undefined;
      },
      windowMs: freeWriteWindowMs(),
    });
    return immediate
      ? `${what} cancelled at once: its billing stops now`
      : `${what} cancelled at its billing anniversary: billed (${money(state.estimatedMonthlyCost, 2)}/month) until then, then gone`;
  }

  return kindProvider(fields as VolumeFields, {
    describe: (state, id) => `${name(state)} (id ${id})`,
    fetch: async ({ connection, id }) => {
      const v = await storage(connection).findVolume(Number(id));
      if (v?.billingItem?.cancellationDate)
        return goneForStack('was cancelled and ends at its billing anniversary');
      return v;
    },
    checkRules: async (req) => checkVolumeRules(req),
    checkWithApi,
    create,
    edit,
    plan,
    delete: remove,
    editAlways: true,
    owned: true,
  });
}
