/**
 * Type tokens, written once. A kind is one name (`VirtualGuest`); the dynamic resource classes
 * register it under Pulumi's dynamic provider (`pulumi-nodejs:dynamic/svc:VirtualGuest`), the
 * provider plugin as `svc:index:VirtualGuest`. No imports: the program loads this too.
 */

/** The package: the `svc:` of stack config and of the plugin's tokens. */
export const PACKAGE = 'svc';

/** A kind's type token in the plugin's schema: `svc:index:VirtualGuest`. */
export const pluginToken = (kind: string) => `${PACKAGE}:index:${kind}`;

/** A kind's type token as a dynamic resource: `pulumi-nodejs:dynamic/svc:VirtualGuest`. */
export const dynamicToken = (kind: string) => `pulumi-nodejs:dynamic/${PACKAGE}:${kind}`;

/** The kind a type token of either front door names, if it is one of this package's. */
export function kindOf(token: string): string | undefined {
  for (const prefix of [pluginToken(''), dynamicToken('')]) {
    if (token.startsWith(prefix) && token.length > prefix.length) return token.slice(prefix.length);
  }
  return undefined;
}
