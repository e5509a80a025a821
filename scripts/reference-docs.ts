import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pascal, snake } from './examples';
import { SCHEMA_FILE } from './plugin-schema';

/**
 * The reference docs, generated from the plugin's schema and laid out as the Pulumi Registry lays
 * out a package: `docs/_index.md` (what the package is, its resources and functions),
 * `docs/installation-configuration.md` (installing from a release, the `svc:` settings) and a page
 * per resource and function under `docs/api-docs/` (its example in TypeScript, Python, Go and
 * YAML, its inputs and outputs, how to import it). `npm run generate` rewrites docs/; test/scripts/reference-docs.test.ts keeps it equal to this output.
 */

export const DOCS_DIR = join(__dirname, '..', 'docs');

interface Prop {
  type?: string;
  items?: Prop;
  additionalProperties?: Prop;
  $ref?: string;
  oneOf?: Prop[];
  description?: string;
  default?: unknown;
  secret?: boolean;
  willReplaceOnChanges?: boolean;
  defaultInfo?: { environment: string[] };
}
interface Schema {
  name: string;
  displayName: string;
  version: string;
  description: string;
  pluginDownloadURL: string;
  repository: string;
  language: { python: { pythonRequires: string } };
  config: { variables: Record<string, Prop> };
  types: Record<string, { enum?: { value: string }[]; properties?: Record<string, Prop> }>;
  resources: Record<
    string,
    {
      description: string;
      inputProperties: Record<string, Prop>;
      requiredInputs: string[];
      properties: Record<string, Prop>;
      required: string[];
    }
  >;
  functions: Record<
    string,
    {
      description: string;
      inputs: { properties: Record<string, Prop>; required?: string[] };
      outputs: { properties: Record<string, Prop>; required: string[] };
    }
  >;
}

const shortName = (token: string) => token.split(':')[2];
const page = (token: string) => `api-docs/${shortName(token).toLowerCase()}.md`;
const frontMatter = (title: string, description: string) =>
  ['---', `title: ${title}`, `meta_desc: ${JSON.stringify(description)}`, '---', ''].join('\n');
const firstSentence = (text: string) => text.split('\n')[0].replace(/\.\s.*$/, '.');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n+/g, ' ');

/** A property's type as the docs show it: `integer`, `string[]`, a linked type or enum. */
function typeText(schema: Schema, prop: Prop): string {
  if (prop.$ref?.startsWith('pulumi.json#/')) return prop.$ref.replace('pulumi.json#/', '');
  if (prop.$ref) {
    const token = prop.$ref.replace('#/types/', '');
    const type = schema.types[token];
    const name = shortName(token);
    return type?.enum ? `${name} (${type.enum.map((e) => `\`${e.value}\``).join(', ')})` : name;
  }
  if (prop.oneOf) return prop.oneOf.map((one) => typeText(schema, one)).join(' or ');
  if (prop.type === 'array' && prop.items) return `${typeText(schema, prop.items)}[]`;
  if (prop.additionalProperties) return `map of ${typeText(schema, prop.additionalProperties)}`;
  return prop.type ?? 'any';
}

function table(
  schema: Schema,
  props: Record<string, Prop>,
  required: readonly string[] = [],
  languageNames = false,
): string {
  const names = Object.keys(props);
  if (names.length === 0) return 'None.';
  const rows = names.map((name) => {
    const p = props[name];
    const notes = [
      required.includes(name) ? 'required' : '',
      p.secret ? 'secret' : '',
      p.willReplaceOnChanges ? 'replaces' : '',
      p.default !== undefined ? `default \`${JSON.stringify(p.default)}\`` : '',
      p.defaultInfo ? `env \`${p.defaultInfo.environment.join('`, `')}\`` : '',
    ].filter(Boolean);
    const names = languageNames ? ` \`${snake(name)}\` · \`${pascal(name)}\` |` : '';
    return `| \`${name}\` |${names} ${cell(typeText(schema, p))} | ${notes.join(', ')} | ${cell(p.description ?? '')} |`;
  });
  const [head, rule] = languageNames
    ? ['| name | Python · Go | type | | description |', '| --- | --- | --- | --- | --- |']
    : ['| name | type | | description |', '| --- | --- | --- | --- |'];
  return [head, rule, ...rows].join('\n');
}

/** The object types a page's properties name, each with its own table. */
function typesOf(
  schema: Schema,
  props: Record<string, Prop>[],
  seen = new Set<string>(),
): string[] {
  const refs = props
    .flatMap((p) => Object.values(p))
    .map((p) => (p.items ?? p.additionalProperties ?? p).$ref)
    .filter((ref): ref is string => !!ref && ref.startsWith('#/types/'))
    .map((ref) => ref.replace('#/types/', ''))
    .filter((token) => schema.types[token]?.properties && !seen.has(token));
  return [...new Set(refs)].flatMap((token) => {
    seen.add(token);
    const type = schema.types[token] as { description?: string; properties: Record<string, Prop> };
    const required = (schema.types[token] as { required?: string[] }).required;
    return [
      `### ${shortName(token)}\n\n${type.description ?? ''}\n\n${table(schema, type.properties, required)}`,
      ...typesOf(schema, [type.properties], seen),
    ];
  });
}

/** A schema description as a page: its examples in a language chooser, as the Registry shows. */
function described(text: string): string {
  return text
    .replace('{{% examples %}}\n', '')
    .replace('\n{{% /examples %}}', '')
    .replace(
      /\{\{% example %\}\}\n(### .*\n\n)/,
      '$1{{< chooser language "typescript,python,go,yaml" >}}\n',
    )
    .replace('{{% /example %}}', '{{< /chooser >}}')
    .replace(/```(typescript|python|go|yaml)\n([\s\S]*?)\n```/g, (_, language, code) =>
      [
        `{{% choosable language ${language} %}}`,
        `\`\`\`${language}\n${code}\n\`\`\``,
        '{{% /choosable %}}',
      ].join('\n'),
    );
}

/** A page's top: its front matter, title, token and description with the examples. */
const pageHead = (what: 'resource' | 'function', token: string, description: string) => [
  frontMatter(`${shortName(token)} ${what}`, firstSentence(description)),
  `# ${shortName(token)}`,
  '',
  `${what === 'resource' ? 'Type' : 'Function'} token: \`${token}\``,
  '',
  described(description),
];

const GO_PACKAGE = 'github.com/pulumi-svc/pulumi-svc/sdk/go/svc';

/** How each language declares the resource, as the Registry's "Constructor syntax" shows it. */
function constructorSection(schema: Schema, token: string): string[] {
  const name = shortName(token);
  const r = schema.resources[token];
  const pyArgs = Object.keys(r.inputProperties).map((arg) => `        ${snake(arg)}=None,`);
  return [
    `## Create a ${name} resource`,
    '',
    'Resources are created with functions called constructors.',
    '',
    syntaxChooser([
      [
        'typescript',
        `new ${name}(name: string, args${r.requiredInputs.length ? '' : '?'}: ${name}Args, opts?: CustomResourceOptions);`,
      ],
      [
        'python',
        `${name}(resource_name: str,\n        opts: Optional[ResourceOptions] = None,\n${pyArgs.join('\n')}\n)`,
      ],
      [
        'go',
        `func New${name}(ctx *pulumi.Context, name string, args *${name}Args, opts ...pulumi.ResourceOption) (*${name}, error) // ${GO_PACKAGE}`,
      ],
      ['yaml', `type: ${token}\nproperties:\n  # The inputs below`],
    ]),
  ];
}

/** How each language reads an existing resource's state by its id, as the Registry shows it. */
function lookUpSection(token: string): string[] {
  const name = shortName(token);
  return [
    `## Look up an existing ${name} resource`,
    '',
    `Get an existing ${name} resource's state with the given name and ID; its outputs are those below.`,
    '',
    syntaxChooser([
      [
        'typescript',
        `public static get(name: string, id: Input<ID>, state?: ${name}State, opts?: CustomResourceOptions): ${name}`,
      ],
      [
        'python',
        `@staticmethod\ndef get(resource_name: str, id: str, opts: Optional[ResourceOptions] = None) -> ${name}`,
      ],
      [
        'go',
        `func Get${name}(ctx *pulumi.Context, name string, id pulumi.IDInput, state *${name}State, opts ...pulumi.ResourceOption) (*${name}, error)`,
      ],
      ['yaml', `resources:\n  _:\n    type: ${token}\n    get:\n      id: \${id}`],
    ]),
  ];
}

/** A code block per language in a language chooser. */
const syntaxChooser = (blocks: [string, string][]) =>
  chooser(blocks.map(([language, code]) => [language, language, code, '']));

function resourcePage(schema: Schema, token: string): string {
  const r = schema.resources[token];
  const outputsOnly = Object.fromEntries(
    Object.entries(r.properties).filter(([name]) => !(name in r.inputProperties)),
  );
  return [
    ...pageHead('resource', token, r.description),
    '',
    ...constructorSection(schema, token),
    '',
    ...lookUpSection(token),
    '',
    '## Inputs',
    '',
    'Each input by its name in TypeScript and YAML, then in Python and Go.',
    '',
    table(schema, r.inputProperties, r.requiredInputs, true),
    '',
    '## Outputs',
    '',
    'Every input is an output too; besides them:',
    '',
    table(schema, outputsOnly, r.required, true),
    ...typesSection(schema, [r.inputProperties, r.properties]),
  ].join('\n');
}

/** A property's type as Python's SDK declares it (`Optional[...]` is added by the caller). */
function pythonType(schema: Schema, prop: Prop): string {
  if (prop.$ref?.startsWith('#/types/')) {
    const token = prop.$ref.replace('#/types/', '');
    const name = shortName(token);
    return schema.types[token]?.enum ? `Union[str, '${name}']` : `'${name}'`;
  }
  if (prop.type === 'array' && prop.items) return `Sequence[${pythonType(schema, prop.items)}]`;
  if (prop.additionalProperties)
    return `Mapping[str, ${pythonType(schema, prop.additionalProperties)}]`;
  const plain: Record<string, string> = { string: 'str', integer: 'int', number: 'float' };
  return plain[prop.type ?? ''] ?? (prop.type === 'boolean' ? 'bool' : 'Any');
}

/**
 * The function's name in the Go SDK: Go's generator calls `getX` `LookupX` when `X` is a resource
 * of the package (beside the resource's own `GetX`, which reads one by its id).
 */
function goFunctionName(schema: Schema, token: string): string {
  const named = pascal(shortName(token).replace(/^get/, ''));
  return `${token.replace(/:get\w+$/, `:${named}`)}` in schema.resources
    ? `Lookup${named}`
    : pascal(shortName(token));
}

/**
 * How each language calls the function, as the Registry's "Using" section shows it: the direct
 * form (a Promise, or a blocking call in Python and Go) and the output form (Output arguments
 * and result).
 */
function usingSection(schema: Schema, token: string): string[] {
  const name = shortName(token);
  const f = schema.functions[token];
  const Name = pascal(name);
  const Go = goFunctionName(schema, token);
  const args = f.inputs.required?.length ? 'args' : 'args?';
  const pyArgs = (input: boolean, indent: string) =>
    Object.entries(f.inputs.properties)
      .sort(([a], [b]) => (a < b ? -1 : 1)) // Python's generator sorts them by name
      .map(([arg, prop]) => {
        const type = pythonType(schema, prop);
        return `${snake(arg)}: ${input ? `Optional[pulumi.Input[${type}]]` : `Optional[${type}]`} = None,\n${indent}`;
      })
      .join('');
  const py = (fn: string, input: boolean, result: string) => {
    const indent = ' '.repeat(fn.length + 5);
    return `def ${fn}(${pyArgs(input, indent)}opts: Optional[InvokeOptions] = None) -> ${result}`;
  };
  return [
    `## Using ${name}`,
    '',
    'Two forms: the direct form takes plain arguments and returns the result (a Promise in ' +
      'TypeScript); the output form takes inputs, and returns an output, to use in a program ' +
      "where the arguments are other resources' outputs.",
    '',
    syntaxChooser([
      [
        'typescript',
        `function ${name}(${args}: ${Name}Args, opts?: InvokeOptions): Promise<${Name}Result>\n` +
          `function ${name}Output(${args}: ${Name}OutputArgs, opts?: InvokeOptions): Output<${Name}Result>`,
      ],
      [
        'python',
        `${py(snake(name), false, `${Name}Result`)}\n${py(`${snake(name)}_output`, true, `Output[${Name}Result]`)}`,
      ],
      [
        'go',
        `func ${Go}(ctx *pulumi.Context, args *${Go}Args, opts ...pulumi.InvokeOption) (*${Go}Result, error)\n` +
          `func ${Go}Output(ctx *pulumi.Context, args ${Go}OutputArgs, opts ...pulumi.InvokeOption) ${Go}ResultOutput`,
      ],
      ['yaml', `fn::invoke:\n  function: ${token}\n  arguments:\n    # The arguments below`],
    ]),
  ];
}

function functionPage(schema: Schema, token: string): string {
  const f = schema.functions[token];
  return [
    ...pageHead('function', token, f.description),
    '',
    ...usingSection(schema, token),
    '',
    '## Arguments',
    '',
    'Each argument by its name in TypeScript and YAML, then in Python and Go.',
    '',
    table(schema, f.inputs.properties, f.inputs.required, true),
    '',
    '## Result',
    '',
    table(schema, f.outputs.properties, f.outputs.required, true),
    ...typesSection(schema, [f.inputs.properties, f.outputs.properties]),
  ].join('\n');
}

const typesSection = (schema: Schema, props: Record<string, Prop>[]) => {
  const types = typesOf(schema, props);
  return types.length ? ['', '## Types', '', types.join('\n\n')] : [];
};

/** The first resource's example, in every language, as the package's example. */
function indexExample(schema: Schema): string {
  const [token] = Object.keys(schema.resources);
  const examples = /\{\{% examples %\}\}[\s\S]*\{\{% \/examples %\}\}/.exec(
    schema.resources[token].description,
  )![0];
  return described(examples)
    .replace(/^## Example Usage\n\n/m, '')
    .replace(/^### (.*)$/m, `$1, with the [${shortName(token)}](${page(token)}) resource:`);
}

function indexPage(schema: Schema): string {
  const list = (tokens: string[], what: (t: string) => string) =>
    tokens.map((t) => `- [${shortName(t)}](${page(t)}): ${firstSentence(what(t))}`).join('\n');
  return [
    frontMatter(schema.displayName, schema.description),
    `# ${schema.displayName}`,
    '',
    schema.description,
    '',
    'Programs in TypeScript, Python, Go and YAML use it through the provider plugin',
    '`pulumi-resource-svc` and its SDKs; see [Installation & Configuration](installation-configuration.md).',
    '',
    '## Example',
    '',
    indexExample(schema),
    '',
    '## Resources',
    '',
    list(Object.keys(schema.resources), (t) => schema.resources[t].description),
    '',
    '## Functions',
    '',
    list(Object.keys(schema.functions), (t) => schema.functions[t].description),
  ].join('\n');
}

/** The Go SDK's floor: its module's `go` directive (sdk/go.mod). */
const goFloor = () =>
  /^go (\S+)$/m.exec(readFileSync(join(__dirname, '..', 'sdk', 'go.mod'), 'utf8'))![1];

/** A language chooser of code blocks, each with a line after it: [language, fence, code, note]. */
const chooser = (blocks: [string, string, string, string][]) =>
  [
    `{{< chooser language "${blocks.map(([language]) => language).join(',')}" >}}`,
    ...blocks.map(([language, fence, code, note]) =>
      [
        `{{% choosable language ${language} %}}`,
        `\`\`\`${fence}\n${code}\n\`\`\``,
        ...(note ? ['', note] : []),
        '{{% /choosable %}}',
      ].join('\n'),
    ),
    '{{< /chooser >}}',
  ].join('\n');

/** `pulumi config set` for each setting without a default (`--secret` for a secret one). */
const configLines = (schema: Schema) =>
  Object.entries(schema.config.variables)
    .filter(([, p]) => p.default === undefined)
    .map(
      ([key, p]) =>
        `pulumi config set ${p.secret ? '--secret ' : ''}${schema.name}:${key} <${key}>`,
    );

function installationPage(schema: Schema): string {
  const v = schema.version;
  return [
    frontMatter(
      `${schema.displayName} Installation & Configuration`,
      'Installing the provider and its SDKs from a release, and its settings.',
    ),
    '# Installation & Configuration',
    '',
    '## Installation',
    '',
    `A release holds the plugin (\`pulumi-resource-svc-v${v}-<os>-<arch>.tar.gz\`, no Node.js needed); each SDK is published to its language's registry.`,
    `Every SDK names where the engine downloads the plugin (\`${schema.pluginDownloadURL}\`), so a program needs nothing else.`,
    '',
    chooser([
      [
        'typescript',
        'bash',
        'npm install @pulumi-svc/svc @pulumi/pulumi',
        "Then `import * as svc from '@pulumi-svc/svc'`.",
      ],
      [
        'python',
        'bash',
        'pip install pulumi_svc',
        `Python ${schema.language.python.pythonRequires}; then \`import pulumi_svc as svc\`.`,
      ],
      [
        'go',
        'bash',
        `go get github.com/pulumi-svc/pulumi-svc/sdk@v${v}`,
        `Go ${goFloor()} or later; then \`import "github.com/pulumi-svc/pulumi-svc/sdk/go/svc"\`.`,
      ],
      [
        'yaml',
        'bash',
        `pulumi plugin install resource svc ${v} --server ${schema.pluginDownloadURL}`,
        'Optional: the engine downloads the plugin by itself. Then the type tokens and `fn::invoke`.',
      ],
    ]),
    '',
    '## Configuration',
    '',
    "The `svc:` stack config, or an explicit provider's inputs; each setting also comes from its environment variable or the settings file `~/.svc`.",
    'The settings without a default, the API key as a secret (encrypted in the stack config):',
    '',
    '```bash',
    ...configLines(schema),
    '```',
    '',
    table(schema, schema.config.variables),
  ].join('\n');
}

/** Every page of docs/, by its path under docs/. */
export function referenceDocs(schema: Schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))) {
  return new Map<string, string>([
    ['_index.md', indexPage(schema)],
    ['installation-configuration.md', installationPage(schema)],
    ...Object.keys(schema.resources).map((t) => [page(t), resourcePage(schema, t)] as const),
    ...Object.keys(schema.functions).map((t) => [page(t), functionPage(schema, t)] as const),
  ]);
}

/** Rewrites docs/ (a piece of `npm run generate`, scripts/generate.ts). */
export function writeReferenceDocs(): void {
  rmSync(DOCS_DIR, { recursive: true, force: true });
  for (const [file, text] of referenceDocs()) {
    mkdirSync(dirname(join(DOCS_DIR, file)), { recursive: true });
    writeFileSync(join(DOCS_DIR, file), `${text}\n`);
  }
}
