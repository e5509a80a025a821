import { billingChanges, formatBillingTable, type PreviewJson } from './billing-report';
import { pulumi } from './pulumi-cli';

/** Runs `pulumi preview --json` in a project and prints the plan's billing table (or its JSON). */
export async function printBillingTable(
  cwd: string,
  previewArgs: string[],
  env: Record<string, string> = {},
  json = false,
): Promise<void> {
  const run = await pulumi(['preview', '--json', '--non-interactive', ...previewArgs], {
    cwd,
    env,
  });
  const changes = billingChanges(JSON.parse(run.stdout) as PreviewJson);
  console.log(json ? JSON.stringify(changes) : formatBillingTable(changes));
}
