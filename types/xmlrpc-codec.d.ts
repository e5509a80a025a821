/**
 * The codec modules of the `xmlrpc` package (1.3.x), which `@types/xmlrpc` does not declare.
 * Used only as an interoperability oracle in tests and benchmarks. Behaviour notes are from
 * reading the package's source (lib/serializer.js, lib/deserializer.js).
 */

declare module 'xmlrpc/lib/serializer' {
  /**
   * `<?xml …?><methodCall>…`. Integers always become `<int>` (no `<i8>`), bigint and undefined an
   * empty `<value/>`, Dates local time without a zone unless `dateFormatter.setOpts({ local: false })`.
   * @param encoding written into the XML declaration only; the string itself is not transcoded.
   */
  export function serializeMethodCall(
    method: string,
    params?: readonly unknown[],
    encoding?: string,
  ): string;
  /** `<?xml …?><methodResponse><params><param>…` holding one value. */
  export function serializeMethodResponse(result: unknown): string;
  /** `<?xml …?><methodResponse><fault>…`; only the object's enumerable properties are written. */
  export function serializeFault(fault: {
    faultCode: number | string;
    faultString: string;
  }): string;
}

declare module 'xmlrpc/lib/deserializer' {
  import type { Readable } from 'node:stream';

  /** What a `<fault>` response is reported as. */
  interface XmlRpcFaultError extends Error {
    faultCode: unknown;
    faultString: unknown;
    /** Same as faultCode. */
    code: unknown;
  }

  /**
   * One instance per message. Values: `<i8>` arrives as a string; `<int>`/`<i4>` as numbers with
   * no range check; `<dateTime.iso8601>` with a UTC offset is decoded wrongly (issue #152).
   */
  class Deserializer {
    /** @param encoding Node encoding used to read the stream; default 'utf8'. */
    constructor(encoding?: BufferEncoding);
    /** `error` is an `XmlRpcFaultError` for a fault response, a plain Error for anything malformed. */
    deserializeMethodResponse(
      stream: Readable,
      callback: (error: Error | XmlRpcFaultError | null | undefined, value?: unknown) => void,
    ): void;
    deserializeMethodCall(
      stream: Readable,
      callback: (error: Error | null | undefined, methodName?: string, params?: unknown[]) => void,
    ): void;
  }

  namespace Deserializer {
    export type { XmlRpcFaultError };
  }

  export = Deserializer;
}
