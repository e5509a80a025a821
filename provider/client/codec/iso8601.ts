/**
 * `dateTime.iso8601` in both directions.
 *
 * Written as `YYYYMMDDTHH:MM:SSZ` in UTC (the XML-RPC spec's basic date with extended time, plus
 * `Z`), with `.mmm` only when the milliseconds are not zero so that a Date round-trips exactly.
 * The `xmlrpc` package's decoder reads both forms correctly because they end in `Z`; Python's
 * `xmlrpc.client` would need the zone-less form, which would make the instant ambiguous.
 *
 * Read: basic or extended date and time, optional fraction (`.` or `,`, truncated to ms), zone
 * `Z`, `±HH`, `±HHMM` or `±HH:MM`; no zone means UTC (never the process's local zone).
 */

const ISO8601 =
  /^(\d{4})(-?)(\d{2})\2(\d{2})T(\d{2})(:?)(\d{2})\6(\d{2})(?:[.,](\d+))?(?:Z|([+-])(\d{2})(?::?(\d{2}))?)?$/;

export function formatIso8601(date: Date): string {
  return (
    String(date.getUTCFullYear()).padStart(4, '0') +
    twoDigits(date.getUTCMonth() + 1) +
    twoDigits(date.getUTCDate()) +
    'T' +
    twoDigits(date.getUTCHours()) +
    ':' +
    twoDigits(date.getUTCMinutes()) +
    ':' +
    twoDigits(date.getUTCSeconds()) +
    fraction(date.getUTCMilliseconds()) +
    'Z'
  );
}

/** True when `formatIso8601` can write the date: a valid time with a four-digit year. */
export function isFormattableDate(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= 0 && year <= 9999;
}

/** The instant `text` names, or undefined when it is not an ISO 8601 date-time. */
export function parseIso8601(text: string): Date | undefined {
  const m = ISO8601.exec(text.trim());
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[3], m[4], m[5], m[7], m[8]].map(Number);
  const millis = m[9] === undefined ? 0 : Number(m[9].slice(0, 3).padEnd(3, '0'));
  const offsetHours = m[11] === undefined ? 0 : Number(m[11]);
  const offsetMinutes = m[12] === undefined ? 0 : Number(m[12]);
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return undefined;
  }
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 to 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hour, minute, second, millis);
  const offsetSign = m[10] === '-' ? -1 : 1;
  return new Date(date.getTime() - offsetSign * (offsetHours * 60 + offsetMinutes) * 60_000);
}

function twoDigits(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

function fraction(millis: number): string {
  return millis === 0 ? '' : '.' + String(millis).padStart(3, '0');
}
