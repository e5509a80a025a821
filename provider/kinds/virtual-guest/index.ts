/**
 * What the tools (`commands/`, `policy/`) use of the guest: its billing face, which the registry
 * also lists, and its provenance (the creation token a state move recomputes, the backend it is
 * derived from). Nothing else of this folder is for them.
 */
export { GUEST_BILLING } from './faces';
export { backendKey, creationToken } from './provenance';
