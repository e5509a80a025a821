#!/usr/bin/env node
import { packageVersion } from '../provider/client/version';
import { EXIT, UsageError, commandHelp, parseCommandArgs } from './command';
import { COMMANDS } from './commands';
import { MIN_PULUMI_VERSION } from './pulumi';

/** `pulumi-svc --help`: the commands, what each exit status means, the Pulumi CLI it uses. */
function usage(): string {
  const names = Object.keys(COMMANDS);
  const width = Math.max(...names.map((n) => n.length));
  return [
    'Usage: pulumi-svc <command> [options]   (in your Pulumi project)',
    '       pulumi-svc <command> --help      (its options)',
    '       pulumi-svc --version',
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(width)}  ${COMMANDS[name].summary}`),
    '',
    'Exit status:',
    `  ${EXIT.ok}  done, nothing found`,
    `  ${EXIT.failed}  the command failed (the Pulumi CLI, the API, a file)`,
    `  ${EXIT.usage}  usage error: an unknown command or option, a bad value; nothing was run`,
    `  ${EXIT.findings}  findings: audit found something, billing --strict found something unpriced`,
    '',
    'The Pulumi CLI used is $PULUMI_BIN_DIR/pulumi when that is set, else `pulumi` on PATH',
    `(3.x, ${MIN_PULUMI_VERSION} or later).`,
  ].join('\n');
}

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/** Runs one command line; answers the exit status (what it prints goes to stdout and stderr). */
export async function main(argv: string[], cwd: string): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--version') {
    console.log(packageVersion());
    return EXIT.ok;
  }
  if (name !== undefined && isHelp(name)) {
    console.log(usage());
    return EXIT.ok;
  }
  const command = name !== undefined && Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    console.error(
      name === undefined
        ? usage()
        : `pulumi-svc: unknown command ${name}; the commands are ${Object.keys(COMMANDS).join(', ')} (see pulumi-svc --help)`,
    );
    return EXIT.usage;
  }
  const own = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (own.some(isHelp)) {
    console.log(commandHelp(name, command));
    return EXIT.ok;
  }
  try {
    return await command.run(cwd, parseCommandArgs(name, command, rest), {});
  } catch (err) {
    console.error(`pulumi-svc: ${(err as Error).message}`);
    return err instanceof UsageError ? EXIT.usage : EXIT.failed;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2), process.cwd()).then((status) => {
    // A failure exits at once (an API client's open connection must not keep it waiting); a
    // report ends when its output is written.
    if (status === EXIT.failed || status === EXIT.usage) process.exit(status);
    process.exitCode = status;
  });
}
