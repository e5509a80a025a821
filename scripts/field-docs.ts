import { join } from 'node:path';
import ts from 'typescript';

/**
 * Each field's doc line is the JSDoc comment of its entry in the field table, the one text an IDE
 * shows on hovering the property (fields.ts keeps Args and outputs linked to the entries). This
 * reads those comments with the TypeScript compiler, by resource kind then field name, for the
 * README's reference tables (reference-tables.ts).
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

/**
 * The docs of every resource class exported by resources/index.ts: an export whose type is
 * `ResourceClass<F>` (resource-class.ts), `F` being its field table's type.
 */
export function fieldDocs(): ReadonlyMap<string, ReadonlyMap<string, string>> {
  const program = ts.createProgram([RESOURCES], OPTIONS);
  const checker = program.getTypeChecker();
  const module = checker.getSymbolAtLocation(program.getSourceFile(RESOURCES)!)!;
  const docs = new Map<string, Map<string, string>>();
  for (const exported of checker.getExportsOfModule(module)) {
    const type = checker.getTypeOfSymbol(exported);
    if (type.aliasSymbol?.name !== 'ResourceClass' || !type.aliasTypeArguments) continue;
    const fields = type.aliasTypeArguments[0].getProperties();
    docs.set(exported.name, new Map(fields.map((field) => [field.name, docText(field, checker)])));
  }
  return docs;
}
