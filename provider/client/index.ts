export { Client, ClientBase, type ClientOptions, type GatedWrite, type WriteGate } from './client';
export { Service, ServiceBase, type RemoteMethod } from './service';
export type { CallOptions, IterCallOptions } from './options';
export type { ListResult } from './result';
export { ApiKeyAuth, BasicHttpAuth, TokenAuth, type Auth } from './auth';
export { API_PRIVATE_ENDPOINT, API_PUBLIC_ENDPOINT } from './endpoints';
export {
  CONFIG_SECTION,
  DEFAULT_CONFIG_FILE,
  DEFAULT_TIMEOUT_SECONDS,
  resolveSettings,
  type Settings,
  type SettingsInput,
} from './settings';
export {
  DEFAULT_RETRY,
  isRetriable,
  isSafeToRepeat,
  isWrite,
  type RetryInfo,
  type RetryOptions,
  type RequestInfo,
  type ResponseInfo,
} from './transport';
export { formatMask } from './mask';
export {
  formatFilterDate,
  mergeFilters,
  nestedFilter,
  orderBy,
  queryFilter,
  queryFilterDate,
  type Filter,
  type FilterCondition,
} from './filter';
export { closeConnections, DEFAULT_MAX_RESPONSE_BYTES } from './transport';
export * from './errors';
