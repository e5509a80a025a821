import type { EarlyAnswer, KindCapabilities } from '../../framework/capabilities';
import { connect } from '../../framework/connection';
import { initFailure } from '../../framework/runtime-provider';
import { earlierAttempt, handOverGuest } from './create';
import type { GuestInputs } from './inputs';
import { virtualGuestProvider } from './provider';
import type { GUEST_FIELDS } from './fields';

/**
 * A guest's operations that the engine cancels while they still wait (a guest's long waits:
 * readiness, an upgrade's transaction, a delete until the guest is idle, the search for an order
 * whose answer was lost), or abandons: the guest kind's capabilities (framework/capabilities.ts).
 * Everything here reads, except the claim of a kept guest (what a create does right before the
 * engine records its id; registered like any claim, framework/claims.ts).
 */

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * A guest create cancelled while it waits: the guest it ordered (the id its order answered, the
 * guest it marked, or the one guest carrying its creation token that no state owns yet), marked
 * owned and read, goes to the engine as "created but failed to initialize": the id is kept and
 * the next `pulumi up` waits for it, no second order. Without a guest, nothing was ordered (or an
 * order's answer was lost and it has not shown yet: its token is looked for again before the next
 * order).
 */
function cancelledCreate(inputs: GuestInputs, started: number): EarlyAnswer {
  return (op) => async (): Promise<never> => {
    const name = inputs.resourceName;
    const c = connect();
    const [touched] = op.touched;
    const token = inputs.creationToken;
    const found =
      touched ??
      (inputs.adoptId
        ? Number(inputs.adoptId)
        : token
          ? (await earlierAttempt(c, name, token, inputs, 'now')).guest?.id
          : undefined);
    if (found === undefined) {
      throw new Error(
        `VirtualGuest "${name}": cancelled before it had a guest. No guest carries its creation token ${token ?? '(none)'}: nothing was ordered, or an order whose answer was lost has not shown yet; the next \`pulumi up\` looks for that token before it orders`,
      );
    }
    await handOverGuest(c, found);
    const read = await virtualGuestProvider.read(String(found), inputs);
    const message = `VirtualGuest "${name}": cancelled after ${seconds(Date.now() - started)} while guest ${found} was not ready yet; the guest is kept in the stack (id ${found}) and the next \`pulumi up\` waits for it again (no new order)`;
    throw initFailure(message, String(found), {
      ...inputs,
      ...(read.props ?? {}),
      guestId: found,
    });
  };
}

/**
 * A guest update cancelled while it waits (for an upgrade to finish, or for readiness): the
 * engine keeps the guest's last recorded state; an upgrade already ordered is found by the next
 * `pulumi up` from the guest's size and transactions, never ordered again.
 */
function cancelledUpdate(id: string): EarlyAnswer {
  return () => async (): Promise<never> => {
    throw new Error(
      `VirtualGuest (id ${id}): cancelled while the update waited; the guest stays in the stack as it was recorded, and the next \`pulumi up\` finishes the update (an upgrade already ordered is not ordered again)`,
    );
  };
}

/**
 * A guest delete cancelled while it waits for the guest to be idle, before it sent the deletion:
 * the guest is not deleted and stays in the stack. One that sent it runs to its end (it only
 * checks the deletion's effect now).
 */
function cancelledDelete(id: string): EarlyAnswer {
  return (op) =>
    op.writes > 0
      ? undefined
      : async (): Promise<never> => {
          throw new Error(
            `VirtualGuest (id ${id}): cancelled before it was deleted; the guest is not deleted and stays in the stack`,
          );
        };
}

export const GUEST_CAPABILITIES: KindCapabilities<typeof GUEST_FIELDS> = {
  cancel: { create: cancelledCreate, update: cancelledUpdate, delete: cancelledDelete },
};
