export { encodeFault, encodeMethodCall, encodeMethodResponse } from './encode';
export { createResponseDecoder, decodeMethodCall, decodeMethodResponse } from './decode';
export type { MethodCall, StreamingDecoder } from './decode';
export type { DecodeLimits, DecodedResponse, Fault, XmlRpcInteger, XmlRpcValue } from './types';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_DEPTH } from './types';
