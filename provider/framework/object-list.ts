import { Failures } from './failures';
import { checkFields, withFieldDefaults, type Bag, type Fields } from './fields';
import { isUnknown } from './unknown';

/**
 * A list input whose entries are objects of a field table of their own (a group's `rules`, a
 * volume's `snapshotSchedules`): each entry checked by that table, with its defaults applied;
 * failures are named `<name>[i].<field>`. `shape` says what an entry looks like in a message.
 * Unknown entries (a preview's) are passed through.
 */
export function checkObjectList(
  fields: Fields,
  name: string,
  value: unknown,
  failures: Failures,
  shape: string,
): unknown[] | unknown {
  if (value === undefined || value === null) return [];
  if (isUnknown(value) || !Array.isArray(value)) {
    if (!isUnknown(value)) failures.add(name, `${name} must be a list of ${shape}`);
    return value;
  }
  return value.map((entry: unknown, i) => {
    if (isUnknown(entry)) return entry;
    const at = `${name}[${i}]`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
      failures.add(at, `${at} must be an object ${shape}`);
      return entry;
    }
    const unknownKeys = Object.keys(entry).filter((k) => !(k in fields));
    if (unknownKeys.length > 0) failures.add(at, `${at} has no field ${unknownKeys.join(', ')}`);
    const checked = withFieldDefaults(fields, {}, entry as Bag);
    const own = new Failures();
    checkFields(fields, checked, own);
    for (const f of own.list) failures.add(`${at}.${f.property}`, `${at}.${f.reason}`);
    return checked;
  });
}
