/**
 * XML-RPC encoder: one pass over the value (value-writer.ts, where the mapping of JavaScript
 * values to XML-RPC is), writing UTF-8 bytes with the tags as prepared byte runs, and one string
 * at the end (byte-writer.ts). No whitespace between tags.
 *
 * Measured (issue 17): building the document as a JavaScript string instead (`+=` ropes, flattened
 * per struct or not, or parts joined once) was 1.5-2x slower than writing bytes: the hundreds of
 * thousands of rope nodes or parts live to the end, and the GC copies them all.
 */

import { ByteTemplate } from './byte-template';
import type { Fault } from './types';
import type { ValueWriter } from './value-writer';
import * as valueWriter from './value-writer';

// Imports copied to module constants: where modules are compiled to CommonJS by esbuild (tsx: the
// tests and benchmarks), every use of an imported binding is a getter call.
const { byType, PARAM_ENDS, VALUE_ENDS, VALUE_STARTS, writeString } = valueWriter;

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
  return writeString(writeCall, { methodName, params });
}

export function encodeMethodResponse(value: unknown): string {
  return writeString(writeResponse, value);
}

export function encodeFault(fault: Fault): string {
  const { faultCode, faultString } = fault;
  if (typeof faultCode !== 'number' && typeof faultCode !== 'string') {
    throw new TypeError('faultCode must be a number or a string');
  }
  return writeString(writeFault, { faultCode, faultString: String(faultString) });
}

// Functions of the module rather than closures: a closure made per encoding is compiled again
// after every GC (its context dies).

function writeCall(writer: ValueWriter, call: { methodName: string; params: readonly unknown[] }) {
  const { out } = writer;
  out.template(CALL_START);
  writer.text(call.methodName, ['methodName']);
  out.template(CALL_PARAMS);
  for (let i = 0; i < call.params.length; i++) {
    out.template(PARAM_ENDS[writer.value(call.params[i], PARAM_STARTS, ['params', i])]);
  }
  out.template(CALL_END);
}

function writeResponse(writer: ValueWriter, value: unknown): void {
  writer.out.template(RESPONSE_START);
  writer.out.template(VALUE_ENDS[writer.value(value, VALUE_STARTS, ['value'])]);
  writer.out.template(RESPONSE_END);
}

function writeFault(writer: ValueWriter, fault: Fault): void {
  writer.out.template(FAULT_START);
  writer.out.template(VALUE_ENDS[writer.value(fault, VALUE_STARTS, ['fault'])]);
  writer.out.template(FAULT_END);
}
