export { encodeFault, encodeMethodCall, encodeMethodResponse } from './encode';
export { decodeMethodCall, decodeMethodResponse } from './decode';
export type { DecodeLimits, DecodedResponse, Fault, XmlRpcValue } from './types';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH } from './types';
