import { formatBillingTable, previewBilling } from './billing-report';
import { withDemoStack } from './demo-stack';

/** `npm run billing -- [stack]`: the billing-affecting changes a `pulumi up` of the quickstart would make. */
async function main(stackName: string): Promise<void> {
  const changes = await withDemoStack(stackName, (stack) => previewBilling(stack));
  console.log(formatBillingTable(changes));
}

main(process.argv[2] ?? 'demo').catch((err: Error) => {
  console.error(`billing failed: ${err.message}`);
  process.exit(1);
});
