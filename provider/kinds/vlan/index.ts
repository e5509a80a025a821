/** What the tools use of the Vlan kind (commands/ and policy/ import nothing else of it). */
export { VLAN_ADOPTION, VLAN_BILLING } from './faces';
