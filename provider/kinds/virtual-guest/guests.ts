import { VirtualGuestManager } from '../../managers';
import type { Connection } from '../../framework/connection';

/** The connection's one guest manager (its batched readiness polls are shared by every guest). */
export const guests = (c: Connection): VirtualGuestManager => c.use(VirtualGuestManager);
