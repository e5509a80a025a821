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

/** The arguments without any of the options `names` and their values. */
export function withoutOptions(args: string[], names: string[]): string[] {
  return args.filter((arg, i) => {
    const isNamed = (a: string | undefined) => a !== undefined && names.includes(a.split('=')[0]);
    return !isNamed(arg) && !(isNamed(args[i - 1]) && !args[i - 1].includes('='));
  });
}
