/**
 * The guest's faces, which the registry lists for the tools (`commands/`, `policy/`): its billing
 * and its adoption. Nothing else of this folder is for them (the creation token a state move
 * recomputes is every billed kind's: framework/creation-token.ts).
 */
export { GUEST_ADOPTION, GUEST_BILLING } from './faces';
