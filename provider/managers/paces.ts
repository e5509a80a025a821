import type { Pace } from '../client/poll';

/**
 * How the waits for a guest poll, in one place. For its state (ready after an order, an upgrade
 * or a reload): soon at first, so a guest ready in seconds is noticed within a second or two, then
 * gently slower (x1.5), at most one round every 15 s through a long provisioning.
 */
export const READY_PACE: Pace = { firstMs: 1000, growth: 1.5, maxMs: 15_000 };

/** For a transaction to end (before a cancel or a reload) or a cancelled guest to be gone. */
export const IDLE_PACE: Pace = { firstMs: 500, growth: 2, maxMs: 10_000 };
