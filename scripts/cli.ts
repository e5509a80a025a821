#!/usr/bin/env node
import { printBillingTable } from './billing';

const USAGE = `Usage: pulumi-svc billing [--json] [pulumi preview options, e.g. --stack dev]

  billing   runs \`pulumi preview --json\` in the current Pulumi project and prints the plan's
            billing table: each guest ordered, replaced or cancelled, with old and new hourly
            cost and the total change. --json prints the changes as JSON instead.`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== 'billing') {
    console.error(USAGE);
    process.exit(command === '--help' || command === '-h' ? 0 : 2);
  }
  const json = rest.includes('--json');
  await printBillingTable(
    process.cwd(),
    rest.filter((arg) => arg !== '--json'),
    {},
    json,
  );
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`pulumi-svc: ${err.message}`);
  process.exit(1);
});
