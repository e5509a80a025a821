/** Reading `pulumi preview`'s arguments as `pulumi-svc billing` passes them on. */

/**
 * Every value of a repeatable option, in order, under any of its names (`--stack a -s b
 * --stack=c`: a, b, c).
 */
export function options(args: string[], names: string | string[]): string[] {
  const named = typeof names === 'string' ? [names] : names;
  return args.flatMap((arg, i) => {
    const [name, ...inline] = arg.split('=');
    if (!named.includes(name)) return [];
    if (inline.length > 0) return [inline.join('=')];
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
    return [value];
  });
}
