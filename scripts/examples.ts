import type { Example, ExampleValue } from '../provider/lookups/define';

/**
 * A resource's or a lookup's example (declared once, with the kind or the lookup) written as a
 * program in TypeScript, Python, Go and YAML, in the form Pulumi's schema descriptions carry them
 * (`{{% examples %}}`: each SDK's code generator keeps its own language's block, the reference
 * docs show all four). Typed by the schema itself, so Go gets `pulumi.Int`, `svc.RecordType`, ...
 */

type Spec = Record<string, unknown>;
export interface SchemaView {
  name: string;
  types: Record<string, Spec>;
  resources: Record<string, Spec>;
}

export const LANGUAGES = ['typescript', 'python', 'go', 'yaml'] as const;
export type Language = (typeof LANGUAGES)[number];

/** What the example declares: a resource (by token) or a function's Output form. */
export interface Subject {
  token: string;
  kind: 'resource' | 'function';
  /** Each argument's schema property. */
  inputs: Record<string, Spec>;
}

const SDK_TS = '@pulumi-svc/svc';
const SDK_GO = 'github.com/pulumi-svc/pulumi-svc/sdk/go/svc';

const shortName = (token: string) => token.split(':')[2];
/** A property's name in the Python SDK (`startCpus` → `start_cpus`). */
export const snake = (name: string) => name.replace(/([A-Z])/g, '_$1').toLowerCase();
/** A property's name in the Go SDK (`startCpus` → `StartCpus`). */
export const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);
const typeName = (ref: unknown) => String(ref).replace(/^#\/types\/[^:]+:[^:]+:/, '');

/** The Go SDK's name of a function: `Lookup` where a resource of the same name exists. */
function goFunction(view: SchemaView, name: string): string {
  const rest = name.replace(/^get/, '');
  const lookup = name.startsWith('get') && `${view.name}:index:${rest}` in view.resources;
  return lookup ? `Lookup${rest}` : pascal(name);
}

const isObject = (v: ExampleValue): v is { [k: string]: ExampleValue } =>
  typeof v === 'object' && !Array.isArray(v);

function jsValue(value: ExampleValue, indent: string): string {
  if (Array.isArray(value)) {
    if (!value.some(isObject)) return `[${value.map((v) => jsValue(v, indent)).join(', ')}]`;
    const inner = `${indent}    `;
    return `[\n${value.map((v) => `${inner}${jsValue(v, inner)},`).join('\n')}\n${indent}]`;
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(([k, v]) => `${k}: ${jsValue(v, indent)}`);
    return `{ ${entries.join(', ')} }`;
  }
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

function typescript(_view: SchemaView, subject: Subject, ex: Example): string {
  const name = shortName(subject.token);
  const args = Object.entries(ex.args).map(([k, v]) => `    ${k}: ${jsValue(v, '    ')},`);
  const call =
    subject.kind === 'resource'
      ? `new svc.${name}(${JSON.stringify(ex.name).replace(/"/g, "'")}, {\n${args.join('\n')}\n});`
      : `svc.${name}Output(${args.length ? `{\n${args.join('\n')}\n}` : ''});`;
  return [
    `import * as svc from '${SDK_TS}';`,
    '',
    `const ${ex.name} = ${call.replace(/"/g, "'")}`,
    ...ex.exports.map((out) => `export const ${out} = ${ex.name}.${out};`),
  ].join('\n');
}

function python(_view: SchemaView, subject: Subject, ex: Example): string {
  const name = shortName(subject.token);
  const pyValue = (v: ExampleValue): string => {
    if (Array.isArray(v)) return `[${v.map(pyValue).join(', ')}]`;
    if (isObject(v))
      return `{${Object.entries(v)
        .map(([k, x]) => `"${snake(k)}": ${pyValue(x)}`)
        .join(', ')}}`;
    if (typeof v === 'boolean') return v ? 'True' : 'False';
    return typeof v === 'string' ? JSON.stringify(v) : String(v);
  };
  const args = Object.entries(ex.args).map(([k, v]) => `    ${snake(k)}=${pyValue(v)},`);
  const call =
    subject.kind === 'resource'
      ? `svc.${name}(\n    "${ex.name}",\n${args.join('\n')}\n)`
      : `svc.${snake(name)}_output(${args.length ? `\n${args.join('\n')}\n` : ''})`;
  return [
    'import pulumi',
    'import pulumi_svc as svc',
    '',
    `${ex.name} = ${call}`,
    ...ex.exports.map((out) => `pulumi.export("${out}", ${ex.name}.${snake(out)})`),
  ].join('\n');
}

/** A Go input value of the property `spec` (`pulumi.String("x")`, `svc.RecordType("A")`, ...). */
function goValue(view: SchemaView, spec: Spec, value: ExampleValue, indent: string): string {
  if (spec.$ref) {
    const type = typeName(spec.$ref);
    const declared = view.types[`${view.name}:index:${type}`] ?? {};
    if (declared.enum) return `svc.${type}(${JSON.stringify(value)})`;
    return `&svc.${type}Args${goFields(view, declared.properties as Record<string, Spec>, value as Record<string, ExampleValue>, indent)}`;
  }
  if (spec.type === 'array') {
    const items = spec.items as Spec;
    const list = value as ExampleValue[];
    const element = items.$ref
      ? `svc.${typeName(items.$ref)}Array`
      : `pulumi.${pascal(goScalar(items))}Array`;
    const inner = `${indent}\t`;
    if (items.$ref)
      return `${element}{\n${list.map((v) => `${inner}${goValue(view, items, v, inner)},`).join('\n')}\n${indent}}`;
    return `${element}{${list.map((v) => goValue(view, items, v, indent)).join(', ')}}`;
  }
  return `pulumi.${pascal(goScalar(spec))}(${JSON.stringify(value)})`;
}

const goScalar = (spec: Spec) =>
  ({ string: 'string', integer: 'int', number: 'float64', boolean: 'bool' })[String(spec.type)] ??
  'any';

function goFields(
  view: SchemaView,
  specs: Record<string, Spec>,
  args: Record<string, ExampleValue>,
  indent: string,
): string {
  const entries = Object.entries(args);
  if (entries.length === 0) return '{}';
  const inner = `${indent}\t`;
  const lines = entries.map(
    ([k, v]) => `${inner}${pascal(k)}: ${goValue(view, specs[k] ?? {}, v, inner)},`,
  );
  return `{\n${lines.join('\n')}\n${indent}}`;
}

function go(view: SchemaView, subject: Subject, ex: Example): string {
  const name = shortName(subject.token);
  const t = '\t\t';
  const fields = goFields(view, subject.inputs, ex.args, t);
  const body =
    subject.kind === 'resource'
      ? [
          `${t}${ex.name}, err := svc.New${name}(ctx, "${ex.name}", &svc.${name}Args${fields})`,
          `${t}if err != nil {`,
          `${t}\treturn err`,
          `${t}}`,
          ...ex.exports.map((out) => `${t}ctx.Export("${out}", ${ex.name}.${pascal(out)})`),
        ]
      : [
          `${t}${ex.name} := svc.${goFunction(view, name)}Output(ctx, svc.${goFunction(view, name)}OutputArgs${fields})`,
          ...ex.exports.map((out) => `${t}ctx.Export("${out}", ${ex.name}.${pascal(out)}())`),
        ];
  return [
    'package main',
    '',
    'import (',
    `\t"${SDK_GO}"`,
    '\t"github.com/pulumi/pulumi/sdk/v3/go/pulumi"',
    ')',
    '',
    'func main() {',
    '\tpulumi.Run(func(ctx *pulumi.Context) error {',
    ...body,
    `${t}return nil`,
    '\t})',
    '}',
  ].join('\n');
}

function yamlValue(value: ExampleValue, indent: string): string {
  if (Array.isArray(value)) {
    if (!value.some(isObject)) return ` [${value.map((v) => yamlValue(v, '').trim()).join(', ')}]`;
    // A list of objects in block style: each object's first key after its `- `.
    return value
      .map((v) => yamlValue(v, `${indent}  `).replace(/^\n\s*/, `\n${indent}- `))
      .join('');
  }
  if (isObject(value))
    return Object.entries(value)
      .map(([k, v]) => `\n${indent}${k}:${yamlValue(v, `${indent}  `)}`)
      .join('');
  const plain = typeof value === 'string' && /^[A-Za-z][\w.-]*$/.test(value);
  return ` ${plain || typeof value !== 'string' ? value : JSON.stringify(value)}`;
}

function yaml(_view: SchemaView, subject: Subject, ex: Example): string {
  const args = Object.keys(ex.args).length ? yamlValue(ex.args, '      ') : ' {}';
  const declared =
    subject.kind === 'resource'
      ? ['resources:', `  ${ex.name}:`, `    type: ${subject.token}`, `    properties:${args}`]
      : [
          'variables:',
          `  ${ex.name}:`,
          '    fn::invoke:',
          `      function: ${subject.token}`,
          `      arguments:${yamlValue(ex.args, '        ') || ' {}'}`,
        ];
  return [
    'name: example',
    'runtime: yaml',
    ...declared,
    'outputs:',
    ...ex.exports.map((out) => `  ${out}: \${${ex.name}.${out}}`),
  ].join('\n');
}

const WRITERS: Record<Language, typeof typescript> = { typescript, python, go, yaml };

/** The example in one language. */
export const exampleIn = (language: Language, view: SchemaView, subject: Subject, ex: Example) =>
  WRITERS[language](view, subject, ex);

/** The example section of a schema description, every language in it. */
export function examplesSection(view: SchemaView, subject: Subject, ex: Example): string {
  const blocks = LANGUAGES.map(
    (language) => `\`\`\`${language}\n${exampleIn(language, view, subject, ex)}\n\`\`\``,
  );
  return [
    '{{% examples %}}',
    '## Example Usage',
    '',
    '{{% example %}}',
    `### ${ex.title}`,
    '',
    blocks.join('\n'),
    '{{% /example %}}',
    '{{% /examples %}}',
  ].join('\n');
}

/** The `## Import` section of a resource `pulumi import` takes. */
export const importSection = (token: string, name: string, id: string) =>
  ['## Import', '', '```sh', `$ pulumi import ${token} ${name} ${id}`, '```'].join('\n');
