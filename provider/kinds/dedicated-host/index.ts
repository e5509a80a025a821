/** DedicatedHost's entry file for the tools: its billing and adoption faces. */
export { DEDICATED_HOST_ADOPTION, DEDICATED_HOST_BILLING } from './faces';
