import * as grpc from '@grpc/grpc-js';
import * as enginerpc from '@pulumi/pulumi/proto/engine_grpc_pb';
import * as engineproto from '@pulumi/pulumi/proto/engine_pb';
import { setLineSink, type Line } from '../framework/log';

/**
 * A plugin's own output is not shown to the person running Pulumi; the engine's log is. A line
 * about a resource goes to its row: a wait's progress as the row's passing status (ephemeral: the
 * next replaces it), anything else as a lasting message under the resource's name.
 */
let engine: enginerpc.EngineClient | undefined;
/** The resources whose row shows a passing status now. */
const showing = new Set<string>();

function send(message: string, resource: string | undefined, ephemeral: boolean): void {
  const request = new engineproto.LogRequest()
    .setSeverity(engineproto.LogSeverity.INFO)
    .setMessage(message)
    .setEphemeral(ephemeral);
  if (resource) request.setUrn(resource);
  engine?.log(request, () => undefined);
}

export function logToEngine(address: string): void {
  engine = new enginerpc.EngineClient(address, grpc.credentials.createInsecure());
  setLineSink(({ text, status, resource }: Line) => {
    if (status && resource) showing.add(resource);
    send(status && resource ? status.stage : text, resource, status !== undefined);
  });
}

/** An operation on `resource` ended: the status its waits showed on its row goes. */
export function clearStatus(resource: string): void {
  if (showing.delete(resource)) send('', resource, true);
}
