import { join } from 'node:path';
import ts from 'typescript';

/**
 * Each field's doc line is the JSDoc comment of its entry in the field table, the one text an IDE
 * shows on hovering the property (fields.ts keeps Args and outputs linked to the entries). This
 * reads those comments with the TypeScript compiler, by resource kind then field name, for the
 * README's reference tables (reference-tables.ts) and the plugin schema, with each resource
 * class's own comment.
 */

const RESOURCES = join(__dirname, '..', 'resources', 'index.ts');

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  noEmit: true,
  types: ['node'],
};

/** A doc comment as one line (Markdown reads a line break in it as a space). */
const docText = (symbol: ts.Symbol, checker: ts.TypeChecker) =>
  ts.displayPartsToString(symbol.getDocumentationComment(checker)).replace(/\s+/g, ' ').trim();

interface Docs {
  /** Each field's doc line, by resource kind then field name. */
  fields: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** Each resource class's own doc comment, by kind: what the resource is. */
  kinds: ReadonlyMap<string, string>;
}

let read: Docs | undefined;

/**
 * The docs of every resource class exported by resources/index.ts: an export whose type is
 * `ResourceClass<F>` (resource-class.ts), `F` being its field table's type. Read once (the
 * compiler takes seconds).
 */
function docs(): Docs {
  if (read) return read;
  const program = ts.createProgram([RESOURCES], OPTIONS);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(RESOURCES)!)!;
  const fields = new Map<string, Map<string, string>>();
  const kinds = new Map<string, string>();
  for (const exported of checker.getExportsOfModule(module)) {
    const type = checker.getTypeOfSymbol(exported);
    if (type.aliasSymbol?.name !== 'ResourceClass' || !type.aliasTypeArguments) continue;
    const table = type.aliasTypeArguments[0].getProperties();
    fields.set(exported.name, new Map(table.map((field) => [field.name, docText(field, checker)])));
    kinds.set(exported.name, docText(exported, checker));
  }
  return (read = { fields, kinds });
}

export const fieldDocs = () => docs().fields;

/** What each resource kind is: its class's doc comment, which an IDE shows too. */
export const kindDocs = () => docs().kinds;

/**
 * The doc lines of a field table that is no kind's (a security group's rule table), exported as
 * `name` from `file` (relative to the repository): each entry's JSDoc comment.
 */
const tables = new Map<string, ReadonlyMap<string, string>>();

export function tableDocs(file: string, name: string): ReadonlyMap<string, string> {
  const known = tables.get(`${file}#${name}`);
  if (known) return known;
  const path = join(__dirname, '..', file);
  const program = ts.createProgram([path], OPTIONS);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(path)!)!;
  const table = checker.getExportsOfModule(module).find((s) => s.name === name);
  if (!table) throw new Error(`${file} exports no ${name}`);
  const entries = checker.getTypeOfSymbol(table).getProperties();
  const docs = new Map(entries.map((field) => [field.name, docText(field, checker)]));
  tables.set(`${file}#${name}`, docs);
  return docs;
}
