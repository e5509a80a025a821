/**
 * What the tools (`commands/`, `policy/`) use of the bare metal server: its billing face, which
 * the registry also lists.
 */
export { BARE_METAL_BILLING } from './faces';
