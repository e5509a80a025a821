/** The command line of the `pulumi-svc` commands: options with a value, and flags. */

/** The value after `--name`, or `--name=value`. */
export function option(args: string[], name: string): string | undefined {
  return options(args, name)[0];
}

/** Every value of a repeatable option (`--stack a --stack b`). */
export function options(args: string[], name: string): string[] {
  return args.flatMap((arg, i) => {
    if (arg.startsWith(`${name}=`)) return [arg.slice(name.length + 1)];
    if (arg !== name) return [];
    const value = args[i + 1];
    if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
    return [value];
  });
}

/**
 * Refuses an argument the command does not take (a misspelt or unsupported option would
 * otherwise be ignored and the command run as if it were not there).
 */
export function refuseUnknown(
  command: string,
  args: string[],
  valued: readonly string[],
  flags: readonly string[],
): void {
  for (const [i, arg] of args.entries()) {
    const name = arg.split('=')[0];
    if (!valued.includes(name) && !flags.includes(arg) && !valued.includes(args[i - 1])) {
      throw new Error(
        `${command}: unknown argument ${arg}; it takes ${[...valued.map((v) => `${v} VALUE`), ...flags].join(', ')} (see pulumi-svc --help)`,
      );
    }
  }
}
