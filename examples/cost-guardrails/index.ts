import * as pulumi from '@pulumi/pulumi';
import { VirtualGuest } from 'pulumi-svc';

// N worker guests whose cost the budget pack watches. Stack config: cost-guardrails:count
// (default 2), cost-guardrails:cpus, cost-guardrails:memory (MB). Raise them and
// `npm run preview` shows the budget's verdict; `npm run billing` the report.
const config = new pulumi.Config();
const workers = Array.from(
  { length: config.getNumber('count') ?? 2 },
  (_, i) =>
    new VirtualGuest(`worker-${i}`, {
      domain: 'workers.example.com',
      datacenter: 'dal10',
      startCpus: config.getNumber('cpus') ?? 1,
      maxMemory: config.getNumber('memory') ?? 1024,
      operatingSystemReferenceCode: 'UBUNTU_LATEST',
      tags: ['workers'],
    }),
);

export const monthlyCost = pulumi
  .all(workers.map((w) => w.estimatedMonthlyCost))
  .apply((costs) => Math.round(costs.reduce((a, b) => a + b, 0) * 100) / 100);
