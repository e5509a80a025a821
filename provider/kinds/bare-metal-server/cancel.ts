import type { EarlyAnswer, KindCapabilities } from '../../framework/capabilities';
import { connect } from '../../framework/connection';
import { initFailure } from '../../framework/runtime-provider';
import { HardwareManager, isCancelled } from '../../managers';
import type { BareMetalFields } from './fields';
import type { Inputs } from './order';

/**
 * A server create the engine cancels (a Ctrl-C) while it waits for hours of provisioning: the
 * server it ordered (the id its order made, else the one live server carrying its creation
 * token) goes to the engine at once as "created but failed to initialize", so the state keeps
 * the id and the next `pulumi up` waits for it, no second order. Without a server, nothing was
 * ordered (or a lost answer's server has not shown yet: the next `up` looks for the token first).
 */
function cancelledCreate(inputs: Inputs, started: number): EarlyAnswer {
  return (op) => async (): Promise<never> => {
    const what = `BareMetalServer "${inputs.resourceName}"`;
    const token = inputs.creationToken;
    const [touched] = op.touched;
    const tagged = token
      ? (await connect().use(HardwareManager).listTagged(token)).filter((s) => !isCancelled(s))
      : [];
    const found = touched ?? (tagged.length === 1 ? tagged[0].id : undefined);
    if (found === undefined)
      throw new Error(
        `${what}: cancelled before it had a server; no single live server carries its creation token ${token ?? '(none)'}: nothing was ordered, or an order whose answer was lost has not shown yet; the next \`pulumi up\` looks for that token before it orders`,
      );
    const seconds = Math.round((Date.now() - started) / 1000);
    throw initFailure(
      `${what}: cancelled after ${seconds} s while server ${found} was provisioning; it is kept in the stack (id ${found}) and the next \`pulumi up\` waits for it again (no new order)`,
      String(found),
      { ...inputs },
    );
  };
}

export const BARE_METAL_CAPABILITIES: KindCapabilities<BareMetalFields> = {
  cancel: { create: cancelledCreate },
};
