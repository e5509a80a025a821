#!/usr/bin/env node
/**
 * `pulumi-resource-svc`: the provider plugin the Pulumi CLI starts (through the launcher beside
 * it). Serves Pulumi's provider protocol on a loopback port and prints the port; ends when the
 * engine that started it is gone.
 */
import * as grpc from '@grpc/grpc-js';
import * as provrpc from '@pulumi/pulumi/proto/provider_grpc_pb';
import * as enginerpc from '@pulumi/pulumi/proto/engine_grpc_pb';
import * as engineproto from '@pulumi/pulumi/proto/engine_pb';
import { engineAlive } from '../framework/engine-watch';
import { setLineSink } from '../framework/log';
import { service } from './server';

const ENGINE_CHECK_MS = 2_000;

async function main(args: string[]): Promise<void> {
  const engine = args.find((arg) => /^[\w.-]+:\d+$/.test(arg));
  if (engine) {
    setInterval(() => {
      void engineAlive(engine).then((alive) => alive || process.exit(1));
    }, ENGINE_CHECK_MS).unref();
    // A plugin's own output is not shown to the person running Pulumi; the engine's log is.
    const client = new enginerpc.EngineClient(engine, grpc.credentials.createInsecure());
    setLineSink((line) =>
      client.log(
        new engineproto.LogRequest().setSeverity(engineproto.LogSeverity.INFO).setMessage(line),
        () => undefined,
      ),
    );
  }
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, service);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err ? reject(err) : resolve(bound),
    ),
  );
  console.log(String(port));
}

main(process.argv.slice(2)).catch((err: Error) => {
  console.error(`pulumi-resource-svc: ${err.message}`);
  process.exit(1);
});
