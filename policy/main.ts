#!/usr/bin/env node
/**
 * `pulumi-analyzer-policy-svc`: the analyzer plugin the Pulumi CLI starts for a policy pack whose
 * PulumiPolicy.yaml says `runtime: svc` (this package's `policy/` folder), found in the CLI's
 * plugins (installed from a release's archive) or on PATH. The
 * CLI runs it in the pack's folder with the engine's address; it serves Pulumi's Analyzer
 * protocol on a loopback port, prints the port, and ends when that engine is gone.
 */
import * as grpc from '@grpc/grpc-js';
import * as analyzerrpc from '@pulumi/pulumi/proto/analyzer_grpc_pb';
import { watchEngine } from '../provider/framework/engine-watch';
import { analyzerService } from './server';

const USAGE = `Usage: pulumi-analyzer-policy-svc <engine address> [pack folder]

  The analyzer of pulumi-svc's budget pack, started by the Pulumi CLI (not by hand) for
  \`pulumi preview|up --policy-pack <folder with PulumiPolicy.yaml>\`: installed from a
  release with \`pulumi plugin install analyzer policy-svc <version> --file <archive>\`, or
  on PATH (an npm script has node_modules/.bin on PATH). See README, "Cost guardrails".`;

async function main(argv: string[]): Promise<void> {
  if (argv.some((arg) => arg === '--help' || arg === '-h')) {
    console.log(USAGE);
    return;
  }
  const [engine] = argv;
  if (!engine) throw new Error('started without the engine address: the Pulumi CLI starts this');
  // A killed CLI leaves its plugins running; nothing is left to analyze for then (the analyzer
  // writes nothing and starts nothing, so there is nothing to take back or reap).
  watchEngine({ engine, reap: () => false });
  const server = new grpc.Server();
  server.addService(analyzerrpc.AnalyzerService, analyzerService(process.cwd()));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  console.log(String(port));
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`pulumi-analyzer-policy-svc: ${err.message}`);
  process.exit(1);
});
