#!/usr/bin/env node
import { printAudit } from './audit-command';
import { printBilling } from './billing';
import { printMigration } from './migrate-command';
import { MIN_PULUMI_VERSION } from './pulumi';

const USAGE = `Usage: pulumi-svc <command> [--json] [options]   (in your Pulumi project)

  billing [--format table|markdown|json] [--hours-per-month N] [--strict] [--only-increase]
          [--stack NAME] [other pulumi preview options] [-- anything for pulumi preview]
            runs \`pulumi preview --json\` and prints the plan's billing report: each guest
            ordered, replaced, upgraded in place (CPUs, memory, port speed, disks) or
            cancelled, with old and new hourly and monthly cost and the fields that cause it;
            the total change, the stack's monthly total before and after, and what could not
            be priced and why. --hours-per-month: the hours of a month (default 730);
            --strict: exit 2 when something could not be priced; --only-increase: print
            nothing when the plan does not raise the cost. --json is --format json.
  billing --reconcile [--format F] [--stack NAME]...
            no plan: what each guest of the stacks is billed now against what its state
            recorded, the guests that differ with both monthly amounts.
  audit [--stack NAME]... [--import-file PATH] [--datacenter DC] [--hostname GLOB]
        [--domain GLOB] [--tag TAG]
            holds the account against the states of the named stacks (default: every stack of
            the current backend): billed guests that carry this provider's provenance but are in
            no state, state entries whose guest is gone, guests changed outside Pulumi (their
            size, names, tags or bill), and the guests, SSH keys, DNS zones and records no stack
            owns. --import-file writes Pulumi's bulk import file for those (\`pulumi import
            --file PATH\` on the provider plugin); --datacenter, --hostname, --tag keep only
            guests that match, --domain guests of that domain and zones of that name with their
            records (GLOB: * and ?).
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
    process.exitCode = await printBilling(process.cwd(), rest);
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
