/** A value the XML-RPC codec can carry. Structs decode to plain objects, arrays to arrays. */
export type XmlRpcValue =
  | null
  | boolean
  | number
  | bigint
  | string
  | Date
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
