import type * as pulumi from '@pulumi/pulumi';

/** What the engine sends in place of a value that is not known yet (during preview). */
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when the value is set and known, so it can be validated now. */
export function isKnown(value: unknown): boolean {
  return value !== undefined && value !== null && !containsUnknown(value);
}

export function containsUnknown(value: unknown): boolean {
  if (value === UNKNOWN) return true;
  if (Array.isArray(value)) return value.some(containsUnknown);
  if (value && typeof value === 'object') return Object.values(value).some(containsUnknown);
  return false;
}

interface NumberRule {
  required?: boolean;
  min?: number;
  max?: number;
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;

/** Collects check failures; each names the property and the rule it breaks. */
export class Failures {
  readonly list: pulumi.dynamic.CheckFailure[] = [];

  add(property: string, reason: string): void {
    this.list.push({ property, reason });
  }

  /** Returns whether the value is present, known and passes; unknown values pass for now. */
  string(
    property: string,
    value: unknown,
    rule: { required?: boolean; maxLength?: number } = {},
  ): boolean {
    if (isUnknown(value)) return false;
    if (value === undefined || value === null || value === '') {
      if (rule.required) this.add(property, `${property} is required`);
      return false;
    }
    if (typeof value !== 'string') {
      this.add(property, `${property} must be a string, got ${typeof value}`);
      return false;
    }
    if (rule.maxLength !== undefined && value.length > rule.maxLength) {
      this.add(
        property,
        `${property} must be at most ${rule.maxLength} characters, got ${value.length}`,
      );
      return false;
    }
    return true;
  }

  integer(property: string, value: unknown, rule: NumberRule = {}): boolean {
    return this.number(property, value, { ...rule, integer: true });
  }

  number(property: string, value: unknown, rule: NumberRule & { integer?: boolean } = {}): boolean {
    if (isUnknown(value)) return false;
    if (value === undefined || value === null) {
      if (rule.required) this.add(property, `${property} is required`);
      return false;
    }
    const kind = rule.integer ? 'an integer' : 'a number';
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      (rule.integer && !Number.isInteger(value))
    ) {
      this.add(property, `${property} must be ${kind}, got ${JSON.stringify(value)}`);
      return false;
    }
    const { min, max } = rule;
    if ((min !== undefined && value < min) || (max !== undefined && value > max)) {
      const range = max === undefined ? `at least ${min}` : `between ${min ?? '-inf'} and ${max}`;
      this.add(property, `${property} must be ${range}, got ${value}`);
      return false;
    }
    return true;
  }

  boolean(property: string, value: unknown): boolean {
    if (value === undefined || isUnknown(value)) return false;
    if (typeof value !== 'boolean') {
      this.add(property, `${property} must be true or false, got ${JSON.stringify(value)}`);
      return false;
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
    if (!this.string(property, value, { required, maxLength: 63 })) return false;
    if (!HOST_LABEL.test(value as string)) {
      this.add(
        property,
        `${property} ${JSON.stringify(value)} must be letters, digits and inner hyphens (one DNS label)`,
      );
      return false;
    }
    return true;
  }

  domain(property: string, value: unknown, required: boolean): boolean {
    if (!this.string(property, value, { required, maxLength: 253 })) return false;
    const labels = (value as string).split('.');
    if (labels.length < 2 || !labels.every((label) => HOST_LABEL.test(label))) {
      this.add(
        property,
        `${property} ${JSON.stringify(value)} must be a domain name such as example.com`,
      );
      return false;
    }
    return true;
  }
}

/** Accepts the spec's literal text 'true'/'false' as well as booleans. */
export function asBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The names of `fields` whose values differ between the two bags (unknown counts as changed). */
export function changedFields(
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  fields: readonly string[],
): string[] {
  return fields.filter(
    (field) => containsUnknown(news[field]) || !sameJson(olds[field], news[field]),
  );
}

/** An error the engine records as "created but failed to initialize": it keeps the id in state. */
export function initFailure(
  message: string,
  id: string,
  properties: Record<string, unknown>,
): Error {
  return Object.assign(new Error(message), { id, properties, reasons: [message] });
}
