import type { Connection } from '../../framework/connection';
import { unlessNotFound } from '../../managers/not-found';

/**
 * An object of the account that a guest's order names (a VLAN, a placement group, a host), read
 * for `check`: undefined when the account has none of that id.
 */
export const findObject = async <T>(c: Connection, service: string, id: number, mask: string) =>
  (await unlessNotFound(c.client.call(service, 'getObject', { id, mask }))) as T | undefined;
