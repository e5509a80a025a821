/**
 * Stores a value as a non-enumerable own property, so spreading, `Object.keys`, `JSON.stringify`
 * and a plain `inspect` of the object do not show it. Used for credentials.
 */
export function defineHidden<T extends object>(target: T, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    writable: true,
    enumerable: false,
    configurable: true,
  });
}
