/**
 * Props for outputs the program does not set: Pulumi makes an Output property only for keys present
 * in the props, so computed outputs and omitted optional inputs are listed with an undefined value.
 */
export function computed(names: string[]): Record<string, undefined> {
  return Object.fromEntries(names.map((name) => [name, undefined]));
}
