export {
  encodedBody,
  withEncoding,
  type CallSummary,
  type RpcCall,
  type RpcResult,
  type Transport,
} from './call';
export { composeTransport, type TransportOptions } from './compose';
export {
  describeRequest,
  describeResponse,
  loggableArgs,
  requestInfo,
  responseInfo,
  withDebug,
  type DebugHooks,
  type RequestInfo,
  type ResponseInfo,
} from './debug';
export { withTiming, type Outcome } from './timing';
export { withRateLimit } from './rate-limit';
export { isSafeToRepeat, isWrite } from './writes';
export {
  DEFAULT_RETRY,
  checkRetryOptions,
  isRetriable,
  withRetry,
  type RetryInfo,
  type RetryOptions,
} from './retry';
export { agentFor, agentOptions, closeConnections, sendHttp } from './http';
export { transportFailure, type TransportFailure } from './failures';
export { TOTAL_ITEMS_HEADER } from './response';
export { DEFAULT_MAX_RESPONSE_BYTES, checkMaxResponseBytes } from './body-limit';
export { PreparedCalls, preparedCallKey } from './prepared-calls';
export {
  OBJECT_MASK_HEADER,
  SERVICE_PREFIX,
  buildApiHeaders,
  buildHttpHeaders,
  filterHeader,
  initParametersHeader,
  maskHeader,
  remoteServiceName,
  resultLimitHeader,
  type HeaderEntry,
} from './request';
