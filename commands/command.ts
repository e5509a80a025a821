import { parseArgs } from 'node:util';

/**
 * What a `pulumi-svc` command is: its options (each with its help), its help text and its
 * handler. The `COMMANDS` table (commands.ts) lists them; cli.ts parses a command's arguments
 * against its options with `node:util`'s `parseArgs` and runs its handler.
 */

/** The exit statuses, as CLIs use them (README, "The commands"). */
export const EXIT = {
  ok: 0,
  /** The command failed (the Pulumi CLI, the API, a file). */
  failed: 1,
  /** The command line is wrong: an unknown command or option, a bad value. Nothing was run. */
  usage: 2,
  /** The command ran and found something: `audit` findings, `billing --strict` unpriced. */
  findings: 3,
} as const;

/** A wrong command line: exits with EXIT.usage. */
export class UsageError extends Error {}

export interface OptionSpec {
  /** `string` takes a value (`--stack dev` or `--stack=dev`); `boolean` takes none. */
  type: 'string' | 'boolean';
  /** One letter: `-s dev`. */
  short?: string;
  /** Given more than once, every value counts (`--stack a --stack b`). */
  multiple?: boolean;
  /** What the value is, in the help: `NAME`, `table|markdown|json`. */
  value?: string;
  help: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** What a command line gave: each option's value(s), and what came after `--`. */
export class ParsedArgs {
  readonly values: Record<string, string | boolean | string[] | undefined> = {};
  /** The options as written, in order, each as its words (`['--stack', 'dev']`). */
  readonly written: { name: string; words: string[] }[] = [];
  /** After `--` (only a command that takes `afterDashes`). */
  readonly passed: string[] = [];

  /** A string option's value (the last one given). */
  string(name: string): string | undefined {
    const value = this.values[name];
    return Array.isArray(value) ? value[value.length - 1] : (value as string | undefined);
  }

  /** Every value of a repeatable option. */
  strings(name: string): string[] {
    const value = this.values[name];
    return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  }

  flag(name: string): boolean {
    return this.values[name] === true;
  }
}

export interface Command {
  /** One line, for `pulumi-svc --help`. */
  summary: string;
  /** What follows `pulumi-svc <name>` in its usage line. */
  usage: string;
  /** What it does, for `pulumi-svc <name> --help`. */
  description: string;
  options: OptionSpecs;
  /** What `--` passes on, if the command takes anything after it. */
  afterDashes?: string;
  /** Runs it in the project at `cwd`; answers the exit status. */
  run(cwd: string, args: ParsedArgs, env: Record<string, string>): Promise<number>;
}

const flag = (name: string, spec: OptionSpec, short = true) =>
  `--${name}${spec.short && short ? `, -${spec.short}` : ''}${spec.type === 'string' ? ` ${spec.value ?? 'VALUE'}` : ''}`;

/** What the command takes, for an error naming an argument it does not. */
const takes = (options: OptionSpecs) =>
  Object.entries(options)
    .map(([name, spec]) => flag(name, spec, false))
    .join(', ');

/**
 * Reads a command's arguments against its options; anything else is a UsageError naming it
 * (a misspelt flag must not silently change what a command does).
 */
export function parseCommandArgs(command: string, spec: Command, argv: string[]): ParsedArgs {
  const { tokens } = parseArgs({
    args: argv,
    options: Object.fromEntries(
      Object.entries(spec.options).map(([name, o]) => [
        name,
        { type: o.type, multiple: o.multiple ?? false, ...(o.short ? { short: o.short } : {}) },
      ]),
    ),
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const parsed = new ParsedArgs();
  let afterDashes = false;
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      if (!spec.afterDashes) throw new UsageError(`${command}: takes nothing after --`);
      afterDashes = true;
    } else if (token.kind === 'positional') {
      if (!afterDashes)
        throw new UsageError(
          `${command}: unknown argument ${token.value}; it takes ${takes(spec.options)} (see pulumi-svc ${command} --help)`,
        );
      parsed.passed.push(token.value);
    } else {
      readOption(command, spec.options, token, parsed);
    }
  }
  return parsed;
}

type OptionToken = {
  name: string;
  rawName: string;
  value?: string;
  inlineValue?: boolean;
};

function readOption(command: string, options: OptionSpecs, token: OptionToken, into: ParsedArgs) {
  const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
  if (!spec)
    throw new UsageError(
      `${command}: unknown argument ${token.rawName}; it takes ${takes(options)} (see pulumi-svc ${command} --help)`,
    );
  if (spec.type === 'boolean') {
    if (token.value !== undefined)
      throw new UsageError(`${command}: ${token.rawName} takes no value`);
    into.values[token.name] = true;
    into.written.push({ name: token.name, words: [token.rawName] });
    return;
  }
  // `--stack --json`: the next option is not a value (an `=` says it is one).
  if (token.value === undefined || (!token.inlineValue && token.value.startsWith('--')))
    throw new UsageError(`${command}: ${token.rawName} needs a value`);
  const value = token.value;
  const before = into.values[token.name];
  into.values[token.name] = spec.multiple ? [...((before as string[]) ?? []), value] : value;
  into.written.push({
    name: token.name,
    words: token.inlineValue ? [`${token.rawName}=${value}`] : [token.rawName, value],
  });
}

/** Text wrapped to `width` columns, each line after `indent` spaces. */
function wrap(text: string, indent: number, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].map((l) => ' '.repeat(indent) + l);
}

/** `pulumi-svc <name> --help`. */
export function commandHelp(name: string, spec: Command): string {
  const options = Object.entries(spec.options).map(([option, o]) => [flag(option, o), o.help]);
  const width = Math.max(...options.map(([f]) => f.length));
  return [
    `Usage: pulumi-svc ${name} ${spec.usage}`,
    '',
    ...spec.description.split('\n\n').flatMap((p, i) => [...(i ? [''] : []), ...wrap(p, 0)]),
    '',
    'Options:',
    ...options.flatMap(([f, help]) => {
      const [first, ...rest] = wrap(help, width + 4);
      return [`  ${f.padEnd(width)}  ${first.trimStart()}`, ...rest];
    }),
    ...(spec.afterDashes ? ['', ...wrap(`After --: ${spec.afterDashes}`, 0)] : []),
  ].join('\n');
}
