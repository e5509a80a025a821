import { billingChanges, formatBillingTable, type PreviewJson } from './billing-report';
import { pulumiJson } from './pulumi';

/** Runs `pulumi preview --json` in a project and prints the plan's billing table (or its JSON). */
export async function printBillingTable(
  cwd: string,
  previewArgs: string[],
  env: Record<string, string> = {},
  json = false,
): Promise<void> {
  const preview = await pulumiJson<PreviewJson>(
    ['preview', '--json', '--non-interactive', ...previewArgs],
    { cwd, env },
  );
  const changes = billingChanges(preview);
  console.log(json ? JSON.stringify(changes) : formatBillingTable(changes));
}
