/**
 * Object masks: the string grammar (`mask[id,datacenter.name]`, `mask.a,mask.b`,
 * `[mask.id, mask.x]`, `filteredMask[...]`, bare `id, hostname`, type casts `x(Svc_Type)`,
 * whitespace anywhere) and legacy struct masks (`{resourceRecords: {}}`), both parsed into a
 * tree of property names, then checked against the schema.
 */
import { ApiFault, FaultCodes, propertyNotValid, publicFault } from '../errors';
import { isKnownType, typeDef, type TypeDef } from '../schema';

export interface MaskNode {
  readonly props: Map<string, MaskNode>;
  /** Types named in casts (`x(Svc_Hardware_Server)`): their properties are valid here too. */
  readonly casts: Set<string>;
}

export interface Mask {
  root: MaskNode;
  /** `filteredMask[...]`: the object filter also prunes the nested lists the mask names. */
  filtered: boolean;
}

const MAX_MASK_LENGTH = 65_536;
const MAX_DEPTH = 24;

const newNode = (): MaskNode => ({ props: new Map(), casts: new Set() });

type Token =
  { kind: 'name'; text: string; at: number } | { kind: 'punct'; text: string; at: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  // `;` separates properties like `,` (the form softlayer-go documents: `Mask("id;hostname")`).
  const re = /\s*(?:([A-Za-z_][A-Za-z0-9_]*)|([.,;[\]()])|(\S))/gy;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[1] !== undefined) tokens.push({ kind: 'name', text: m[1], at: m.index });
    else if (m[2] !== undefined)
      tokens.push({ kind: 'punct', text: m[2] === ';' ? ',' : m[2], at: m.index });
    else if (m[3] !== undefined) {
      throw maskSyntax(text, `unexpected character '${m[3]}'`, re.lastIndex - 1);
    } else break; // only trailing whitespace left
  }
  return tokens;
}

function maskSyntax(text: string, detail: string, at: number): ApiFault {
  const shown = text.length > 200 ? `${text.slice(0, 200)}...` : text;
  return publicFault(`Object mask '${shown}' is not valid: ${detail} at position ${at}.`);
}

class Parser {
  private pos = 0;
  constructor(
    private readonly text: string,
    private readonly tokens: Token[],
  ) {}

  parse(): Mask {
    const root = newNode();
    let filtered = false;
    if (this.tokens.length === 0) return { root, filtered };
    do {
      filtered = this.rootItem(root) || filtered;
    } while (this.accept(','));
    if (this.pos < this.tokens.length) this.fail('expected , or end of mask');
    return { root, filtered };
  }

  /** One top-level item; true when it was `filteredMask`. */
  private rootItem(root: MaskNode): boolean {
    const token = this.peek();
    if (token?.kind === 'name' && (token.text === 'mask' || token.text === 'filteredMask')) {
      this.pos += 1;
      this.cast(root);
      if (this.accept('.')) this.path(root, 1);
      else if (this.accept('[')) this.list(root, 1, true);
      return token.text === 'filteredMask';
    }
    if (this.accept('[')) {
      this.list(root, 1, true);
      return false;
    }
    this.path(root, 1);
    return false;
  }

  /** `a[.b|[...]]` added under `parent`. */
  private path(parent: MaskNode, depth: number): void {
    if (depth > MAX_DEPTH) this.fail('mask is nested too deeply');
    const token = this.peek();
    if (token?.kind !== 'name') this.fail('expected a property name');
    this.pos += 1;
    let node = parent.props.get(token.text);
    if (!node) parent.props.set(token.text, (node = newNode()));
    this.cast(node);
    if (this.accept('.')) this.path(node, depth + 1);
    else if (this.accept('[')) this.list(node, depth + 1, false);
  }

  /** Comma-separated items up to `]`; at the root level items may start with `mask.`. */
  private list(parent: MaskNode, depth: number, atRoot: boolean): void {
    if (this.accept(']')) return;
    do {
      const token = this.peek();
      if (atRoot && token?.kind === 'name' && token.text === 'mask') {
        this.pos += 1;
        this.cast(parent);
        if (this.accept('.')) this.path(parent, depth);
        else if (this.accept('[')) this.list(parent, depth, true);
      } else {
        this.path(parent, depth);
      }
    } while (this.accept(','));
    if (!this.accept(']')) this.fail('expected , or ]');
  }

  /** `(Svc_Type)`: the properties of that type are valid at `node` too. */
  private cast(node: MaskNode): void {
    if (!this.accept('(')) return;
    const token = this.peek();
    if (token?.kind !== 'name') this.fail('expected a type name');
    this.pos += 1;
    if (!this.accept(')')) this.fail('expected )');
    node.casts.add(token.text);
  }

  private peek(): Token | undefined {
    return this.tokens[this.pos];
  }

  private accept(punct: string): boolean {
    const token = this.tokens[this.pos];
    if (token?.kind === 'punct' && token.text === punct) {
      this.pos += 1;
      return true;
    }
    return false;
  }

  private fail(detail: string): never {
    const token = this.tokens[this.pos];
    throw maskSyntax(this.text, detail, token ? token.at : this.text.length);
  }
}

export function parseMaskString(text: string): Mask {
  if (text.length > MAX_MASK_LENGTH) {
    throw publicFault(
      `Object mask is too long (${text.length} characters; the limit is ${MAX_MASK_LENGTH}).`,
    );
  }
  return new Parser(text, tokenize(text)).parse();
}

/** Legacy struct masks: each key names a property; a struct value nests, anything else is a leaf. */
export function maskFromStruct(value: Record<string, unknown>, depth = 1): MaskNode {
  if (depth > MAX_DEPTH) throw publicFault('Object mask is nested too deeply.');
  const node = newNode();
  for (const [key, child] of Object.entries(value)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      throw publicFault(`Object mask property name '${key}' is not valid.`);
    }
    const isStruct = child !== null && typeof child === 'object' && !Array.isArray(child);
    node.props.set(
      key,
      isStruct ? maskFromStruct(child as Record<string, unknown>, depth + 1) : newNode(),
    );
  }
  return node;
}

/** The type a mask level reads, then the types it is cast to. */
export function levelTypes(node: MaskNode, type: TypeDef): TypeDef[] {
  if (node.casts.size === 0) return [type];
  return [
    type,
    ...[...node.casts].filter((name) => name !== type.name).map((name) => typeDef(name)),
  ];
}

/** Every name must be a property of its type (or of a cast); plain properties take no sub-mask. */
export function validateMask(node: MaskNode, type: TypeDef): void {
  for (const cast of node.casts) {
    if (!isKnownType(cast)) throw publicFault(`Object mask type '${cast}' is not a known type.`);
  }
  const types = levelTypes(node, type);
  for (const [name, child] of node.props) {
    const owner = types.find(
      (t) => t.relations.has(name) || t.locals.has(name) || t.onDemand.has(name),
    );
    if (!owner) throw propertyNotValid(name, type.name);
    const relation = owner.relations.get(name);
    if (relation) {
      validateMask(child, typeDef(relation.type));
    } else if (child.props.size > 0) {
      const [first] = child.props.keys();
      throw new ApiFault(
        FaultCodes.public,
        `Property '${first}' not valid for '${name}' of '${owner.name}': '${name}' is not relational.`,
      );
    }
  }
}
