/**
 * Snapshot schedules, as the reference client sets them (softlayer-python
 * `StorageManager.enable_snapshots` / `disable_snapshots`):
 * `Network_Storage.enableSnapshots(scheduleType, retentionCount, minute, hour, dayOfWeek)` sets
 * the volume's schedule of that type (HOURLY, DAILY or WEEKLY; one per type, a second call
 * replaces it) and `disableSnapshots(scheduleType)` removes it (removing none changes nothing).
 * A schedule needs the volume's snapshot space, and the schedules together keep at most
 * SNAPSHOT_LIMIT snapshots. Read back through the volume's `schedules` (./types.ts).
 */
import { invalidValue, publicFault } from '../../errors';
import { readInt, readString } from '../../validators';
import { expectArgs, ok, owned, requireId, type AuthedContext } from '../context';
import type { MethodDef } from '../service';
import {
  DAYS,
  SCHEDULE_TYPES,
  isLive,
  isProvisioned,
  type ScheduleRec,
  type ScheduleType,
  type VolumeRec,
} from './model';

/** The live volume a call addresses: the caller's. */
export const loadVolume = (ctx: AuthedContext): VolumeRec => {
  const id = requireId(ctx);
  const found = ctx.store.get('volumes', id);
  return owned(ctx, found && isLive(ctx.store, found, ctx.now) ? found : undefined, id);
};

/** The snapshots a volume keeps at most, all its schedules together. */
export const SNAPSHOT_LIMIT = 50;

function readType(value: unknown): ScheduleType {
  const type = readString(value, 'scheduleType');
  if (!(SCHEDULE_TYPES as readonly string[]).includes(type))
    throw invalidValue(
      `Invalid value provided for 'scheduleType': ${type}; one of ${SCHEDULE_TYPES.join(', ')}.`,
    );
  return type as ScheduleType;
}

function readRange(value: unknown, field: string, min: number, max: number): number {
  const n = readInt(value, field);
  if (n < min || n > max)
    throw invalidValue(`Invalid value provided for '${field}': ${n}; ${min} to ${max}.`);
  return n;
}

function readDay(value: unknown): number {
  const day = DAYS.indexOf(readString(value, 'dayOfWeek') as (typeof DAYS)[number]);
  if (day < 0)
    throw invalidValue(`Invalid value provided for 'dayOfWeek': one of ${DAYS.join(', ')}.`);
  return day;
}

const enableSnapshots: MethodDef = {
  handler: async (ctx: AuthedContext) => {
    expectArgs(ctx, ['scheduleType', 'retentionCount', 'minute', 'hour', 'dayOfWeek']);
    const volume = loadVolume(ctx);
    const [typeArg, retention, minute, hour, day] = ctx.args;
    const type = readType(typeArg);
    const schedule: ScheduleRec = {
      id: ctx.store.nextSubId(),
      type,
      retentionCount: readRange(retention, 'retentionCount', 1, SNAPSHOT_LIMIT),
      minute: readRange(minute, 'minute', 0, 59),
      hour: readRange(hour, 'hour', 0, 23),
      dayOfWeek: readDay(day),
      createDate: ctx.now,
    };
    if (!isProvisioned(volume, ctx.now))
      throw publicFault(
        `Volume ${volume.id} is still being provisioned; snapshots can be scheduled once it is ready.`,
      );
    if (!volume.snapshotSpace)
      throw publicFault(
        `Volume ${volume.id} has no snapshot space; order snapshot space before scheduling snapshots.`,
      );
    const others = (volume.schedules ?? []).filter((s) => s.type !== type);
    const kept = others.reduce((n, s) => n + s.retentionCount, schedule.retentionCount);
    if (kept > SNAPSHOT_LIMIT)
      throw publicFault(
        `The schedules of volume ${volume.id} would keep ${kept} snapshots; a volume keeps at most ${SNAPSHOT_LIMIT}.`,
      );
    const schedules = [...others, schedule];
    await ctx.store.write([{ put: 'volumes', record: { ...volume, schedules } }]);
    return ok(true);
  },
};

const disableSnapshots: MethodDef = {
  handler: async (ctx: AuthedContext) => {
    expectArgs(ctx, ['scheduleType']);
    const volume = loadVolume(ctx);
    const type = readType(ctx.args[0]);
    const schedules = (volume.schedules ?? []).filter((s) => s.type !== type);
    if (schedules.length !== (volume.schedules ?? []).length)
      await ctx.store.write([{ put: 'volumes', record: { ...volume, schedules } }]);
    return ok(true);
  },
};

export const SNAPSHOT_METHODS = { enableSnapshots, disableSnapshots };
