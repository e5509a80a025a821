import { types, type Bag, type Fields } from '../../framework/fields';
import { rules } from '../../framework/field-rules';
import type { SnapshotSchedule, SnapshotScheduleRead } from '../../managers';

/**
 * A snapshot schedule's fields (a volume's `snapshotSchedules` entries), as
 * `Network_Storage.enableSnapshots(scheduleType, retentionCount, minute, hour, dayOfWeek)` takes
 * them. The schema's `VolumeSnapshotSchedule` type and the program's argument type are derived
 * from this table.
 */

export const SCHEDULE_TYPES = ['HOURLY', 'DAILY', 'WEEKLY'] as const;
export const DAYS = [
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
] as const;
/** The snapshots a volume keeps at most, its schedules together. */
export const SNAPSHOT_LIMIT = 50;

export const SNAPSHOT_SCHEDULE_FIELDS = {
  /** `HOURLY`, `DAILY` or `WEEKLY`; a volume has at most one schedule of each. */
  type: {
    type: types.string,
    input: 'required',
    output: true,
    rule: rules.oneOf(SCHEDULE_TYPES, 'schedule type'),
    oneOf: {
      name: 'SnapshotScheduleType',
      values: SCHEDULE_TYPES,
      meanings: {
        HOURLY: 'A snapshot every hour, at `minute`.',
        DAILY: 'A snapshot every day, at `hour`:`minute`.',
        WEEKLY: 'A snapshot every week, on `dayOfWeek` at `hour`:`minute`.',
      },
    },
  },
  /** How many of this schedule's snapshots are kept (the oldest is deleted); 1-50 in all. */
  retentionCount: {
    type: types.integer,
    input: 'required',
    output: true,
    rule: rules.integer({ min: 1, max: SNAPSHOT_LIMIT }),
  },
  /** The minute of the hour the snapshot is taken (0-59; default 0). */
  minute: {
    type: types.integer,
    input: 'optional',
    output: true,
    default: 0,
    rule: rules.integer({ min: 0, max: 59 }),
  },
  /** DAILY and WEEKLY: the hour of the day (0-23, the datacenter's time; default 0). */
  hour: {
    type: types.integer,
    input: 'optional',
    output: true,
    rule: rules.integer({ min: 0, max: 23 }),
  },
  /** WEEKLY: the day of the week (`SUNDAY`, the default, to `SATURDAY`). */
  dayOfWeek: {
    type: types.string,
    input: 'optional',
    output: true,
    rule: rules.custom((failures, name, value) => {
      if (value !== undefined && value !== null && failures.string(name, value))
        failures.oneOf(name, value as string, DAYS, 'a day of the week');
    }, DAYS.join(', ')),
    oneOf: {
      name: 'SnapshotDayOfWeek',
      values: DAYS,
      meanings: Object.fromEntries(DAYS.map((d) => [d, `On ${d.toLowerCase()}s.`])),
    },
  },
} satisfies Fields;

/** A schedule in its declared form: only what its type uses, defaults applied, in one key order. */
export function declaredSchedule(s: Bag): Bag {
  const type = s.type as string;
  return {
    type,
    retentionCount: s.retentionCount,
    minute: s.minute ?? 0,
    ...(type === 'HOURLY' ? {} : { hour: s.hour ?? 0 }),
    ...(type === 'WEEKLY' ? { dayOfWeek: s.dayOfWeek ?? 'SUNDAY' } : {}),
  };
}

/** Schedules in one order (hourly, daily, weekly), so two lists compare as JSON. */
export const byType = (list: Bag[]) =>
  [...list].sort(
    (a, b) =>
      SCHEDULE_TYPES.indexOf(a.type as (typeof SCHEDULE_TYPES)[number]) -
      SCHEDULE_TYPES.indexOf(b.type as (typeof SCHEDULE_TYPES)[number]),
  );

/** The volume's schedules as declared: its `SNAPSHOT_<TYPE>` schedules' properties. */
export function readSchedules(list: SnapshotScheduleRead[] | undefined): Bag[] {
  const out = (list ?? []).flatMap((s) => {
    const type = s.type?.keyname?.replace(/^SNAPSHOT_/, '');
    if (!type || !(SCHEDULE_TYPES as readonly string[]).includes(type)) return [];
    const prop = (key: string) => s.properties?.find((p) => p.type?.keyname === key)?.value;
    const day = prop('DAY_OF_WEEK');
    return [
      declaredSchedule({
        type,
        retentionCount: Number(prop('SNAPSHOT_LIMIT')),
        minute: Number(prop('MINUTE') ?? 0),
        hour: Number(prop('HOUR') ?? 0),
        // The API shows the day as its number (0 is Sunday); a name is taken too.
        dayOfWeek: day === undefined ? undefined : /^\d$/.test(day) ? DAYS[Number(day)] : day,
      }),
    ];
  });
  return byType(out);
}

/** What `enableSnapshots` is sent for a declared schedule. */
export const scheduleCall = (s: Bag): SnapshotSchedule => ({
  type: s.type as SnapshotSchedule['type'],
  retentionCount: Number(s.retentionCount),
  minute: Number(s.minute ?? 0),
  hour: Number(s.hour ?? 0),
  dayOfWeek: String(s.dayOfWeek ?? 'SUNDAY'),
});
