#!/usr/bin/env node
import { readOptions } from './args';
import { printAudit } from './audit-command';
import { printBillingTable } from './billing';
import { printMigration } from './migrate-command';
import { MIN_PULUMI_VERSION } from './pulumi';

const USAGE = `Usage: pulumi-svc <command> [--json] [options]   (in your Pulumi project)

  billing [--stack NAME]
            runs \`pulumi preview --json\` and prints the plan's billing table: each guest
            ordered, replaced, upgraded in place (CPUs, memory, port speed, disks) or
            cancelled, with old and new hourly and monthly cost and the total change.
  audit [--stack NAME]...
            holds the account's guests against the states of the named stacks (default: every
            stack of the current backend): billed guests that carry this provider's provenance
            but are in no state, state entries whose guest is gone, guests changed outside Pulumi.
  migrate [--stack NAME] [--dry-run] [--provider-version V] [--backup FILE]
            moves a stack from the dynamic resource classes to the provider plugin
            (svc:index:<Kind>): \`pulumi stack export\`, the state rewritten (same ids, no
            code), a backup of it as it was, \`pulumi stack import\`, then svc:movedToPlugin
            set (the dynamic classes refuse the stack from then on); refuses a stack with
            pending operations or unknown kinds. --dry-run only prints the plan;
            --provider-version names the version the rewritten program asks for (an SDK's).

  --json    prints the result as JSON instead of a table.

  The Pulumi CLI used is $PULUMI_BIN_DIR/pulumi when that is set, else \`pulumi\` on PATH
  (3.x, ${MIN_PULUMI_VERSION} or later).`;

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (argv.some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
  } else if (command === 'billing') {
    const given = readOptions('billing', rest, { stack: { value: true }, json: {} });
    const stack = given.stack as string | undefined;
    await printBillingTable(
      process.cwd(),
      stack ? ['--stack', stack] : [],
      {},
      given.json === true,
    );
  } else if (command === 'audit') {
    await printAudit(process.cwd(), rest);
  } else if (command === 'migrate') {
    await printMigration(process.cwd(), rest);
  } else {
    console.error(USAGE);
    process.exit(2);
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`pulumi-svc: ${err.message}`);
  process.exit(1);
});
