/** The command-line arguments of the `pulumi-svc` commands: `--name value` or `--name=value`. */

/** The value after `--name`, or `--name=value`. */
export function option(args: string[], name: string): string | undefined {
  return options(args, name)[0];
}

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

/**
 * Refuses any argument that is not one of `flags` (no value) or `options` (a value, after it or
 * after `=`), naming it: a misspelt flag must not silently change what a command does.
 */
export function refuseUnknown(
  command: string,
  args: string[],
  known: { flags: string[]; options: string[] },
): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const name = arg.split('=')[0];
    if (known.options.includes(name)) {
      if (!arg.includes('=')) i++; // its value
    } else if (!known.flags.includes(arg)) {
      throw new Error(
        `${command}: unknown argument ${arg}; it takes ${[...known.options.map((o) => `${o} VALUE`), ...known.flags].join(', ')} (see pulumi-svc --help)`,
      );
    }
  }
}
