import { SvcError } from '../client/errors';
import { isUnknown } from './unknown';

/**
 * Input validation shared by every resource's `check` and every lookup: one failure per field,
 * naming the field, the rule it breaks and what was given (its value and type), decided before
 * any call. Unknown values (preview) pass until they are known.
 */

/** A field that breaks a rule: the field's name (`records[2].ttl`) and the rule, in words. */
export interface CheckFailure {
  property: string;
  reason: string;
}

/** Limits on inputs; the README lists them. */
export const LIMITS = {
  /** Tags on one guest. */
  tags: 100,
  /** Characters in one tag. */
  tagLength: 128,
  /** SSH keys on one guest. */
  sshKeyIds: 100,
  /** Security groups on one of a guest's interfaces. */
  securityGroupsPerInterface: 5,
  /** Characters of a guest's notes. */
  notes: 1000,
  /** Characters of a guest's user data. */
  userData: 16 * 1024,
  /** Characters of a ticket update. */
  ticketEntry: 64 * 1024,
  /** Characters of a DNS record's data. */
  dnsData: 4096,
  /** Characters of an object mask given to a lookup. */
  mask: 4096,
  /** Nesting depth and number of nodes of an object filter given to a lookup. */
  filterDepth: 10,
  filterNodes: 1000,
  /** Results of one `getVirtualGuests` call. */
  lookupLimit: 10_000,
} as const;

/** The project's validation error: what a lookup throws for bad arguments, before any call. */
export class ValidationError extends SvcError {
  constructor(
    /** What was called, e.g. `getDnsZone`. */
    readonly where: string,
    readonly failures: readonly CheckFailure[],
  ) {
    super(`${where}: ${failures.map((f) => f.reason).join('; ')}`);
  }
}

const SHOWN_CHARS = 40;

/** A string as JSON (control characters escaped), cut to a readable length. */
export function quote(text: string): string {
  return JSON.stringify(text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}...` : text);
}

/** What was given, with its type: `"web" (a string)`, `NaN (a number)`, `an array of 3 items`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) {
    return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  }
  switch (typeof value) {
    case 'string':
      return value === '' ? 'an empty string' : `${quote(value)} (a string)`;
    case 'number':
      return `${Object.is(value, -0) ? '-0' : String(value)} (a number)`;
    case 'boolean':
      return `${String(value)} (a boolean)`;
    case 'bigint':
      return `${String(value)}n (a bigint)`;
    case 'object':
      return value instanceof Date ? 'a Date' : 'an object';
    default:
      return `a ${typeof value}`;
  }
}

/**
 * Characters XML 1.0 cannot carry (so the order could not even be sent) and other control
 * characters: everything below U+0020 but tab, newline and carriage return; U+007F-U+009F;
 * lone surrogates; U+FFFE and U+FFFF.
 */
const BAD_CHARACTER = /[^\t\n\r\x20-\x7e\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** `U+0007 at position 12` for the first bad character of `text`, if any. */
export function badCharacter(text: string): string | undefined {
  const match = BAD_CHARACTER.exec(text);
  if (!match) return undefined;
  const code = match[0].codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${match.index}`;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export interface StringRule {
  required?: boolean;
  maxLength?: number;
  /** A pattern the whole string must match, and how to say it (`must be ...`). */
  pattern?: RegExp;
  patternRule?: string;
}

export interface NumberRule {
  required?: boolean;
  integer?: boolean;
  min?: number;
  max?: number;
}

export interface ListRule {
  /** `a list of tags`, for the type message. */
  what: string;
  max: number;
  /** Checks one item; returns why it is wrong (the item's label is given), or undefined. */
  item(label: string, value: unknown): string | undefined;
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

/** Collects check failures, at most one per field (the first problem found is the one shown). */
export class Failures {
  readonly list: CheckFailure[] = [];

  has(property: string): boolean {
    return this.list.some((f) => f.property === property);
  }

  add(property: string, reason: string): void {
    if (!this.has(property)) this.list.push({ property, reason });
  }

  /** `<label> must be <rule>, got <value> (<type>)`. */
  wrong(property: string, rule: string, value: unknown, label = property): false {
    this.add(property, `${label} must be ${rule}, got ${describeValue(value)}`);
    return false;
  }

  /** False for unknown, and for absent values (a failure when required). */
  private present(property: string, value: unknown, required: boolean | undefined): boolean {
    if (isUnknown(value)) return false;
    if (value === undefined || value === null || value === '') {
      if (required) {
        const given = value === undefined ? '' : `, got ${describeValue(value)}`;
        this.add(property, `${property} is required${given}`);
      }
      return false;
    }
    return true;
  }

  /** Returns whether the value is present, known and passes; unknown values pass for now. */
  string(property: string, value: unknown, rule: StringRule = {}): boolean {
    if (!this.present(property, value, rule.required)) return false;
    return this.text(property, value, rule);
  }

  /** The string rules for a value known to be present; `label` names it in messages. */
  text(property: string, value: unknown, rule: StringRule = {}, label = property): boolean {
    if (typeof value !== 'string') return this.wrong(property, 'a string', value, label);
    const bad = badCharacter(value);
    if (bad) {
      this.add(
        property,
        `${label} must not contain control characters (only tab, newline and carriage return are allowed), got ${bad}`,
      );
      return false;
    }
    if (rule.maxLength !== undefined && value.length > rule.maxLength) {
      this.add(
        property,
        `${label} must be at most ${rule.maxLength} characters, got ${value.length}`,
      );
      return false;
    }
    if (rule.pattern && !rule.pattern.test(value)) {
      this.add(property, `${label} ${quote(value)} must be ${rule.patternRule ?? rule.pattern}`);
      return false;
    }
    return true;
  }

  integer(property: string, value: unknown, rule: NumberRule = {}): boolean {
    return this.number(property, value, { ...rule, integer: true });
  }

  number(property: string, value: unknown, rule: NumberRule = {}, label = property): boolean {
    if (!this.present(property, value, rule.required)) return false;
    const kind = rule.integer ? 'an integer' : 'a number';
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      return this.wrong(property, kind, value, label);
    }
    if (rule.integer && !Number.isSafeInteger(value)) {
      return this.wrong(
        property,
        Number.isInteger(value) ? 'an integer below 2^53' : kind,
        value,
        label,
      );
    }
    const { min, max } = rule;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      const range = max === undefined ? `at least ${min}` : `between ${min ?? '-inf'} and ${max}`;
      return this.wrong(property, range, value, label);
    }
    return true;
  }

  boolean(property: string, value: unknown): boolean {
    if (value === undefined || isUnknown(value)) return false;
    if (typeof value !== 'boolean') return this.wrong(property, 'true or false', value);
    return true;
  }

  /** A list: its type, its length, then each known item (the first bad one is reported). */
  items(property: string, value: unknown, rule: ListRule): boolean {
    if (value === undefined || isUnknown(value)) return false;
    if (!Array.isArray(value)) return this.wrong(property, rule.what, value);
    if (value.length > rule.max) {
      this.add(property, `${property} must have at most ${rule.max} items, got ${value.length}`);
      return false;
    }
    for (let i = 0; i < value.length; i++) {
      if (isUnknown(value[i])) continue;
      const problem = rule.item(`${property}[${i}]`, value[i]);
      if (problem) {
        this.add(property, problem);
        return false;
      }
    }
    return true;
  }

  oneOf<T>(property: string, value: T, allowed: readonly T[], what: string): boolean {
    if (allowed.includes(value)) return true;
    const shown = allowed.length > 12 ? [...allowed.slice(0, 12), '...'] : allowed;
    this.add(
      property,
      `${property} ${JSON.stringify(value)} is not ${what}; allowed: ${shown.join(', ')}`,
    );
    return false;
  }

  hostname(property: string, value: unknown, required: boolean): boolean {
    return this.string(property, value, {
      required,
      maxLength: 63,
      pattern: HOST_LABEL,
      patternRule: 'letters, digits and inner hyphens (one DNS label)',
    });
  }

  domain(property: string, value: unknown, required: boolean): boolean {
    if (!this.string(property, value, { required, maxLength: 253 })) return false;
    const labels = (value as string).split('.');
    if (labels.length < 2 || !labels.every((label) => HOST_LABEL.test(label))) {
      this.add(
        property,
        `${property} ${quote(value as string)} must be a domain name such as example.com`,
      );
      return false;
    }
    return true;
  }
}

/** Why an item is not an integer id >= 1 (`sshKeyIds[2] must be ...`), or undefined. */
export function idProblem(label: string, value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) return undefined;
  return `${label} must be an integer id of at least 1, got ${describeValue(value)}`;
}
