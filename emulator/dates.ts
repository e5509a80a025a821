/**
 * Dates as the API shows them: ISO-8601 strings with a UTC offset, in the service's home zone
 * (US Central, shown as a fixed -06:00 here; the emulator does not model daylight saving).
 */
const OFFSET_MINUTES = -6 * 60;
const OFFSET_TEXT = '-06:00';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `2026-11-22T10:00:00-06:00` for an epoch-milliseconds instant. */
export function formatApiDate(ms: number): string {
  const d = new Date(ms + OFFSET_MINUTES * 60_000);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${OFFSET_TEXT}`
  );
}

/** Wall-clock fields in the API zone to epoch milliseconds. */
function zoned(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const ms = Date.UTC(y, mo - 1, d, h, mi, s) - OFFSET_MINUTES * 60_000;
  return Number.isFinite(ms) ? ms : undefined;
}

const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})(?:\s+(\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?$/;
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Dates given in object filters: `MM/DD/YYYY H:M:S` (24 h, no padding needed, API zone), the
 * same without time, or ISO-8601 (with or without an offset). Undefined when unparseable.
 */
export function parseFilterDate(text: string): number | undefined {
  const t = text.trim();
  let m = US_DATE.exec(t);
  if (m) {
    let year = Number(m[3]);
    if (m[3].length === 2) year += 2000;
    return zoned(
      year,
      Number(m[1]),
      Number(m[2]),
      Number(m[4] ?? 0),
      Number(m[5] ?? 0),
      Number(m[6] ?? 0),
    );
  }
  m = ISO_DATE.exec(t);
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) => Number(v ?? 0));
  const local = zoned(y, mo, d, h, mi, s);
  if (local === undefined || !m[7]) return local;
  if (m[7] === 'Z') return local + OFFSET_MINUTES * 60_000;
  const sign = m[7][0] === '-' ? -1 : 1;
  const digits = m[7].slice(1).replace(':', '');
  const offset = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  return local + (OFFSET_MINUTES - offset) * 60_000;
}

/** Start of the API-zone day containing `ms`. */
export function startOfApiDay(ms: number): number {
  const shifted = ms + OFFSET_MINUTES * 60_000;
  return shifted - (((shifted % 86_400_000) + 86_400_000) % 86_400_000) - OFFSET_MINUTES * 60_000;
}

export const DAY_MS = 86_400_000;
