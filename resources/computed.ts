/** Outputs that are not inputs must still be named in the props to become Output properties. */
export function computed(names: string[]): Record<string, undefined> {
  return Object.fromEntries(names.map((name) => [name, undefined]));
}
