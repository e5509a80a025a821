const warned = new Set<string>();

/** Emits a `DeprecationWarning` the first time `code` is seen in this process, never again. */
export function deprecated(code: string, message: string): void {
  if (warned.has(code)) return;
  warned.add(code);
  process.emitWarning(message, 'DeprecationWarning', code);
}
