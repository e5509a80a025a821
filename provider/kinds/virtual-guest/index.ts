/**
 * What the tools (`commands/`, `policy/`) use of the guest: its billing face, which the registry
 * also lists. Nothing else of this folder is for them (the creation token a state move
 * recomputes is every billed kind's: framework/creation-token.ts).
 */
export { GUEST_BILLING } from './faces';
