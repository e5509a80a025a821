import { StorageManager, type Volume } from '../../managers';
import { outcomeWindowMs, type Connection } from '../../framework/connection';
import { writeIdempotent } from '../../framework/exactly-once';
import type { Failures } from '../../framework/failures';
import type { Bag } from '../../framework/fields';
import { checkObjectList } from '../../framework/object-list';
import { isUnknown } from '../../framework/unknown';
import {
  SNAPSHOT_LIMIT,
  SNAPSHOT_SCHEDULE_FIELDS,
  byType,
  declaredSchedule,
  readSchedules,
  scheduleCall,
} from './schedule-fields';
import { TIERS, isPerformance } from './fields';

/**
 * A volume's snapshots: its snapshot space (`snapshotCapacityGb`, ordered with the volume or by
 * an order of its own on the same volume, and only ever grown) and its schedules
 * (`snapshotSchedules`, set one type at a time with `enableSnapshots` and removed with
 * `disableSnapshots`, so the volume's list is what is declared).
 */

const storage = (c: Connection) => c.use(StorageManager);
const given = (v: unknown) => v !== undefined && v !== null;

/**
 * The schedules checked and in their declared form; a schedule needs snapshot space, one per
 * type, at most SNAPSHOT_LIMIT snapshots kept; snapshot space never shrinks.
 */
export function checkSnapshots(inputs: Bag, olds: Bag, failures: Failures): Bag[] | unknown {
  const checked = checkObjectList(
    SNAPSHOT_SCHEDULE_FIELDS,
    'snapshotSchedules',
    inputs.snapshotSchedules,
    failures,
    '{ type, retentionCount, minute?, hour?, dayOfWeek? }',
  );
  const space = inputs.snapshotCapacityGb;
  const had = olds.snapshotCapacityGb;
  if (typeof had === 'number' && !isUnknown(space) && !(typeof space === 'number' && space >= had))
    failures.add(
      'snapshotCapacityGb',
      `snapshotCapacityGb ${given(space) ? String(space) : '(left out)'} is less than the volume's ${had} GB of snapshot space: snapshot space only grows (the API cannot shrink or remove it on a live volume); declare at least ${had}, or replace the volume`,
    );
  if (!Array.isArray(checked) || checked.some(isUnknown)) return checked;
  const schedules = checked as Bag[];
  schedules.forEach((s, i) => {
    if (s.type !== 'HOURLY' && s.type !== 'WEEKLY' && given(s.dayOfWeek))
      failures.add(
        `snapshotSchedules[${i}].dayOfWeek`,
        `snapshotSchedules[${i}].dayOfWeek is for a WEEKLY schedule, not ${String(s.type)}`,
      );
    if (s.type === 'HOURLY' && (given(s.hour) || given(s.dayOfWeek)))
      failures.add(
        `snapshotSchedules[${i}]`,
        `snapshotSchedules[${i}]: an HOURLY schedule takes minute only (no hour or dayOfWeek)`,
      );
  });
  const types = schedules.map((s) => s.type);
  const twice = types.find((t, i) => types.indexOf(t) !== i);
  if (twice)
    failures.add(
      'snapshotSchedules',
      `snapshotSchedules has two ${String(twice)} schedules: a volume has at most one schedule of each type`,
    );
  const kept = schedules.reduce((n, s) => n + (Number(s.retentionCount) || 0), 0);
  if (kept > SNAPSHOT_LIMIT)
    failures.add(
      'snapshotSchedules',
      `snapshotSchedules keep ${kept} snapshots in all (the retentionCounts added); a volume keeps at most ${SNAPSHOT_LIMIT}`,
    );
  if (schedules.length > 0 && !given(space))
    failures.add(
      'snapshotSchedules',
      'snapshotSchedules need snapshot space: snapshots are kept there; set snapshotCapacityGb (e.g. 20)',
    );
  return byType(schedules.map(declaredSchedule));
}

/** The volume's sizing as the snapshot price is restricted by it (its tier or IOPS). */
const sizingOf = (v: Volume) =>
  isPerformance(v)
    ? { capacityGb: v.capacityGb, iops: Number(v.provisionedIops) }
    : { capacityGb: v.capacityGb, tierIopsPerGb: TIERS[v.storageTierLevel ?? ''] };

const spaceOf = (v: Volume) => Number(v.snapshotCapacityGb ?? 0);

/** Orders the snapshot space the volume lacks (its first, or more of it); never twice. */
export async function growSnapshotSpace(
  c: Connection,
  volumeId: number,
  gb: number,
  what: string,
): Promise<void> {
  const manager = storage(c);
  const volume = await manager.getVolume(volumeId);
  const had = spaceOf(volume);
  if (had >= gb) return;
  const container = await manager.snapshotContainer(
    {
      id: volumeId,
      datacenter: volume.serviceResource?.datacenter?.name ?? '',
      hourly: volume.billingItem?.hourlyFlag ?? false,
      ...sizingOf(volume),
    },
    gb,
    had > 0,
  );
  await writeIdempotent({
    what: `${what} snapshot space ${had} -> ${gb} GB`,
    write: async () => {
      await manager.place(container);
    },
    done: async () => spaceOf(await manager.getVolume(volumeId)) >= gb,
    windowMs: outcomeWindowMs(),
    attempts: 1,
  });
}

/** Makes the volume's schedules the declared ones: extra types disabled, the others set. */
export async function keepSchedules(c: Connection, volumeId: number, declared: Bag[]) {
  const manager = storage(c);
  const now = readSchedules((await manager.getVolume(volumeId)).schedules);
  const key = (s: Bag | undefined) => JSON.stringify(s ?? null);
  for (const s of now)
    if (!declared.some((d) => d.type === s.type))
      await manager.disableSnapshots(volumeId, String(s.type));
  for (const d of declared) {
    const current = now.find((s) => s.type === d.type);
    if (key(current) !== key(declaredSchedule(d)))
      await manager.enableSnapshots(volumeId, scheduleCall(d));
  }
}
