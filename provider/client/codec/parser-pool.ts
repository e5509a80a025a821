/**
 * The parser of a document: a reader fed by a scanner over one input window. One is kept between
 * documents: made afresh each time, their hidden classes die in every full GC, and V8 then
 * deoptimises the code that uses them (measured: after a GC between decodes, each decode took
 * 2.5x as long).
 */

import { InputWindow } from './input-window';
import { XmlRpcReader, type DocumentKind } from './reader';
import { XmlScanner } from './xml-scanner';

export class Parser {
  readonly window = new InputWindow();
  readonly reader = new XmlRpcReader(this.window);
  readonly scanner = new XmlScanner(this.window, this.reader);

  constructor() {
    this.reader.position = this.scanner;
  }

  clear(): void {
    this.window.clear(false);
    this.reader.clear();
    this.scanner.clear();
  }
}

let idleParser: Parser | undefined;

/** A parser for a document (the kept one unless it is in use). */
export function takeParser(kind: DocumentKind, maxDepth: number, latin1: boolean): Parser {
  const parser = idleParser ?? new Parser();
  idleParser = undefined;
  parser.window.latin1 = latin1;
  parser.reader.start(kind, maxDepth);
  return parser;
}

/** Gives a parser back once its document is decoded or has failed. */
export function releaseParser(parser: Parser): void {
  parser.clear();
  idleParser = parser;
}
