import { parseArgs } from 'node:util';

/** The options a command takes: each name with whether it takes a value, and may repeat. */
export type OptionSpec = Record<string, { value?: boolean; multiple?: boolean }>;

type Parsed = Record<string, string | boolean | string[] | undefined>;

/**
 * `args` read against `spec` (`--name value` and `--name=value` alike). Anything else is refused,
 * naming it, rather than ignored or handed on to `pulumi`: a typo would otherwise run the command
 * on other settings than the ones asked for.
 */
export function readOptions(command: string, args: string[], spec: OptionSpec): Parsed {
  try {
    return parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(
        Object.entries(spec).map(([name, { value, multiple }]) => [
          name,
          { type: value ? 'string' : 'boolean', multiple: multiple ?? false },
        ]),
      ),
    }).values as Parsed;
  } catch (err) {
    const { code, message } = err as { code?: string; message: string };
    const named = /'(-[^' ]+)/.exec(message)?.[1] ?? /'([^']+)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new Error(`${named} needs a value`);
    throw new Error(
      `${command}: unknown argument ${named ?? args.join(' ')} (see pulumi-svc --help)`,
    );
  }
}
