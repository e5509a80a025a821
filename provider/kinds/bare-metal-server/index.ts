/**
 * What the tools (`commands/`, `policy/`) use of the bare metal server: its billing and adoption
 * faces, which the registry also lists.
 */
export { BARE_METAL_ADOPTION, BARE_METAL_BILLING } from './faces';
