/**
 * A decoded `<int>`, `<i4>` or `<i8>`: a `number` when the value is exact as one
 * (|v| <= 2^53 - 1, `Number.isSafeInteger`), otherwise a `bigint`. Only 64-bit values beyond that
 * come as a bigint; a value outside the element's range (32 bits for `<i4>`, 64 bits for `<int>`
 * and `<i8>`) is a `ParseError`. Encoding takes both, and any bigint in the 64-bit range.
 */
export type XmlRpcInteger = number | bigint;

/** A value the XML-RPC codec can carry. Structs decode to plain objects, arrays to arrays. */
export type XmlRpcValue =
  | null
  | boolean
  | XmlRpcInteger
  /** `<double>` */
  | number
  | string
  | Date
  /** `<base64>`, read strictly per RFC 4648 (standard alphabet, padded). */
  | Buffer
  | XmlRpcValue[]
  | { [key: string]: XmlRpcValue };

/** The payload of an XML-RPC `<fault>`. The real API sends string codes, most servers ints. */
export interface Fault {
  faultCode: string | number;
  faultString: string;
}

export type DecodedResponse =
  { kind: 'value'; value: XmlRpcValue } | { kind: 'fault'; fault: Fault };

export interface DecodeLimits {
  /** Deepest allowed nesting of structs and arrays. Default 64. */
  maxDepth?: number;
  /** Largest accepted body in bytes (UTF-8 length for a string body). Default 256 MiB. */
  maxBytes?: number;
}

export const DEFAULT_MAX_DEPTH = 64;
export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
