/** The command-line arguments of the `pulumi-svc` commands: `--name value` or `--name=value`. */

/** The value after `--name`, or `--name=value`. */
export function option(args: string[], name: string): string | undefined {
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline) return inline.slice(name.length + 1);
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${name} needs a value`);
  return value;
}

/** Every value given to any of `names` (`--stack a -s b --stack=c`: a, b, c). */
export function optionValues(args: string[], names: string[]): string[] {
  return args.flatMap((arg, i) => {
    const [name, ...inline] = arg.split('=');
    if (names.includes(name) && inline.length > 0) return [inline.join('=')];
    return names.includes(args[i - 1] ?? '') && !arg.startsWith('-') ? [arg] : [];
  });
}

/**
 * Refuses any argument that is not one of `flags` (no value) or `options` (a value, after it or
 * after `=`), naming it: a misspelt flag must not silently change what a command reports.
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
      throw new Error(`${command}: unknown argument ${arg} (see pulumi-svc --help)`);
    }
  }
}
