/** DedicatedHost's entry file for the tools: its billing face. */
export { DEDICATED_HOST_BILLING } from './faces';
