export {
  LegacyClient,
  LegacyClient as Client,
  LegacyClientBase,
  type LegacyClientConstructor,
  type LegacyClientOptions,
  type LegacyRemoteMethod,
} from './client';
