/**
 * XML-RPC encoder: one pass over the value (value-writer.ts, where the mapping of JavaScript
 * values to XML-RPC is), writing UTF-8 bytes with the tags as prepared byte runs, and one string
 * at the end (byte-writer.ts). No whitespace between tags.
 */

import { ByteTemplate } from './byte-template';
import { writeString } from './byte-writer';
import type { Fault } from './types';
import * as valueWriter from './value-writer';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call.
const { byType, PARAM_ENDS, VALUE_ENDS, VALUE_STARTS, ValueWriter } = valueWriter;

const PROLOG = '<?xml version="1.0" encoding="UTF-8"?>';
const CALL_START = ByteTemplate.of(PROLOG + '<methodCall><methodName>');
const CALL_PARAMS = ByteTemplate.of('</methodName><params>');
const CALL_END = ByteTemplate.of('</params></methodCall>');
const RESPONSE_START = ByteTemplate.of(PROLOG + '<methodResponse><params><param>');
const RESPONSE_END = ByteTemplate.of('</param></params></methodResponse>');
const FAULT_START = ByteTemplate.of(PROLOG + '<methodResponse><fault>');
const FAULT_END = ByteTemplate.of('</fault></methodResponse>');
/** Per type: `<param>` and the start of a value of that type. */
const PARAM_STARTS = byType((_, code) => '<param>' + VALUE_STARTS[code].bytes.toString('latin1'));

export function encodeMethodCall(methodName: string, params: readonly unknown[]): string {
  if (typeof methodName !== 'string' || methodName === '') {
    throw new TypeError('methodName must be a non-empty string');
  }
  return writeString((out) => {
    const writer = new ValueWriter(out);
    out.template(CALL_START);
    writer.text(methodName, ['methodName']);
    out.template(CALL_PARAMS);
    for (let i = 0; i < params.length; i++) {
      out.template(PARAM_ENDS[writer.value(params[i], PARAM_STARTS, ['params', i])]);
    }
    out.template(CALL_END);
  });
}

export function encodeMethodResponse(value: unknown): string {
  return writeString((out) => {
    out.template(RESPONSE_START);
    out.template(VALUE_ENDS[new ValueWriter(out).value(value, VALUE_STARTS, ['value'])]);
    out.template(RESPONSE_END);
  });
}

export function encodeFault(fault: Fault): string {
  const { faultCode, faultString } = fault;
  if (typeof faultCode !== 'number' && typeof faultCode !== 'string') {
    throw new TypeError('faultCode must be a number or a string');
  }
  return writeString((out) => {
    out.template(FAULT_START);
    const struct = { faultCode, faultString: String(faultString) };
    out.template(VALUE_ENDS[new ValueWriter(out).value(struct, VALUE_STARTS, ['fault'])]);
    out.template(FAULT_END);
  });
}
