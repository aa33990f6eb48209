/**
 * The tokens and grammar of .fbs files, as far as fbs-schema.ts needs them: statements are
 * read by parseFbs, which gives the declarations their meaning.
 */
interface Token {
  text: string;
  kind: 'id' | 'num' | 'str' | 'punct';
  line: number;
}
const TOKEN =
  /\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/|("(?:[^"\\\n]|\\.)*")|([-+]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?))|([A-Za-z_][A-Za-z0-9_.]*)|([{}()[\]:;,=])/y;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let line = 1;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < text.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(text);
    if (!m) throw new Error(`.fbs line ${line}: unexpected character ${JSON.stringify(text[at])}`);
    if (m[1]) tokens.push({ text: JSON.parse(m[1]) as string, kind: 'str', line });
    else if (m[2]) tokens.push({ text: m[2], kind: 'num', line });
    else if (m[3]) tokens.push({ text: m[3], kind: 'id', line });
    else if (m[4]) tokens.push({ text: m[4], kind: 'punct', line });
    line += (m[0].match(/\n/g) ?? []).length;
  }
  return tokens;
}

type Attributes = Map<string, string>;
export interface RawField {
  name: string;
  type: string;
  vector: boolean;
  defaultText: string | null;
  attrs: Attributes;
  line: number;
}
export interface RawTable {
  name: string;
  struct: boolean;
  fields: RawField[];
}

export class Parser {
  private i = 0;
  constructor(private readonly tokens: Token[]) {}
  get done(): boolean {
    return this.i >= this.tokens.length;
  }
  private fail(message: string): never {
    const t = this.tokens[Math.min(this.i, this.tokens.length - 1)];
    throw new Error(`.fbs line ${t?.line ?? 0}: ${message}`);
  }
  peek(text: string): boolean {
    return this.tokens[this.i]?.text === text && this.tokens[this.i]?.kind !== 'str';
  }
  eat(text: string): boolean {
    if (!this.peek(text)) return false;
    this.i += 1;
    return true;
  }
  expect(text: string): void {
    if (!this.eat(text)) this.fail(`expected "${text}"`);
  }
  next(kind?: Token['kind']): string {
    const t = this.tokens[this.i];
    if (!t || (kind && t.kind !== kind)) this.fail(`expected ${kind ?? 'a token'}`);
    this.i += 1;
    return t.text;
  }
  /** A value after "=": a number, true/false, an enum member or a string. */
  value(): string {
    const t = this.tokens[this.i];
    if (!t || t.kind === 'punct') this.fail('expected a value');
    this.i += 1;
    return t.text;
  }
  /** An optional "(name, name: value, …)" list. */
  attributes(): Attributes {
    const attrs: Attributes = new Map();
    if (!this.eat('(')) return attrs;
    while (!this.eat(')')) {
      const name = this.next('id');
      attrs.set(name, this.eat(':') ? this.value() : '');
      if (!this.peek(')')) this.expect(',');
    }
    return attrs;
  }
  /** The members of an enum or union body, "{ A = 1 (attrs), B, }". */
  members(): [string, string | null][] {
    const members: [string, string | null][] = [];
    this.expect('{');
    while (!this.eat('}')) {
      const name = this.next('id');
      const value = this.eat('=') ? this.value() : null;
      this.attributes();
      members.push([name, value]);
      if (!this.peek('}')) this.expect(',');
    }
    return members;
  }
  tableBody(name: string, struct: boolean): RawTable {
    const fields: RawField[] = [];
    this.expect('{');
    while (!this.eat('}')) {
      const line = this.tokens[this.i]?.line ?? 0;
      const fieldName = this.next('id');
      this.expect(':');
      const vector = this.eat('[');
      const type = this.next('id');
      if (vector) this.expect(']');
      const defaultText = this.eat('=') ? this.value() : null;
      fields.push({ name: fieldName, type, vector, defaultText, attrs: this.attributes(), line });
      this.expect(';');
    }
    return { name, struct, fields };
  }
}
