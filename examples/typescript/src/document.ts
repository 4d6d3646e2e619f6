/**
 * Reading a config file (spec/SPEC.md §8b, CONF-6): one YAML or JSON
 * document, read into a tree of nodes that the resolution in configfile.ts
 * walks. The document as a whole is checked when it is read: it is valid
 * YAML (1.2, core schema) or JSON, it holds one document, no mapping gives a
 * key twice and none has a merge key (`<<`). A value JSON cannot hold (`.inf`,
 * `.nan`, a tag outside the core schema such as `!!binary`) is refused only
 * when it is read, that is when it is one of our settings: the host's own
 * members are not checked, whatever they hold (CONF-5).
 */

import { LineCounter, isAlias, isMap, isPair, isScalar, isSeq, parseAllDocuments } from 'yaml';
import type { Document, Node as YAMLNode, Pair, Scalar as YAMLScalar } from 'yaml';
import { InvalidConfigError } from './messages';

/** A config file breaks CONF-4 or CONF-6; `path` is the dotted path of the offending member ("" for the whole file). */
export class ConfigFileError extends InvalidConfigError {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    // The message starts with the path (CONF-4); the file as a whole is "config file".
    super(`${path === '' ? 'config file' : path}: ${detail}`);
  }
}

/** A node of a config document. */
export type ConfigNode = ScalarNode | MappingNode | ListNode;

export interface ScalarNode {
  readonly kind: 'scalar';
  readonly value: null | boolean | number | string;
  /** How a number is written in the file (`1e400`, `2.50`), for error messages. */
  readonly source?: string;
}

export interface MappingNode {
  readonly kind: 'mapping';
  /** The member names, in document order. */
  readonly names: readonly string[];
  /**
   * The member `name`, or undefined when there is none. Throws
   * ConfigFileError, naming `path`, when its value is one JSON cannot hold.
   */
  member(name: string, path: string): ConfigNode | undefined;
}

export interface ListNode {
  readonly kind: 'list';
}

export type ConfigFormat = 'yaml' | 'json';

/** Reads a config file; undefined for an empty document (no text, or only white space and comments). */
export function readDocument(format: ConfigFormat, text: string): ConfigNode | undefined {
  if (/[\ud800-\udfff]/u.test(text)) {
    // A lone surrogate: the file was not UTF-8 (protocol bytes that are not
    // UTF-8 arrive as such), and neither YAML nor JSON is made of them.
    throw new ConfigFileError('', 'not valid Unicode text (an unpaired surrogate, or bytes that are not UTF-8)');
  }
  return format === 'json' ? readJSON(text) : readYAML(text);
}

/** How a node is named in an error message: `the string "yes"`, `-1`, `a list`. */
export function describe(node: ConfigNode): string {
  switch (node.kind) {
    case 'mapping':
      return 'a mapping';
    case 'list':
      return 'a list';
    default: {
      const v = node.value;
      if (typeof v === 'string') return `the string ${shorten(JSON.stringify(v))}`;
      return typeof v === 'number' && node.source !== undefined ? shorten(node.source) : String(v);
    }
  }
}

const shorten = (s: string): string => (s.length <= 60 ? s : `${s.slice(0, /[\ud800-\udbff]$/.test(s.slice(0, 57)) ? 56 : 57)}...`);

/** `path.name`, or `name` at the top level. */
export const memberPath = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

// ---------------------------------------------------------------------------
// JSON

const JSON_WS = /[ \t\n\r]*/y;
const JSON_STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const JSON_NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

class JSONMapping implements MappingNode {
  readonly kind = 'mapping';
  readonly members = new Map<string, ConfigNode>();
  get names(): string[] {
    return [...this.members.keys()];
  }
  member(name: string): ConfigNode | undefined {
    return this.members.get(name);
  }
}

const LIST: ListNode = Object.freeze({ kind: 'list' });

/**
 * A strict JSON reader (RFC 8259) that, unlike JSON.parse, refuses a member
 * given twice in one object and knows the path of each member. Iterative, so
 * that nesting deeper than the call stack is still read.
 */
function readJSON(text: string): ConfigNode | undefined {
  let pos = 0;
  const lineAt = (at: number): number => text.slice(0, at).split('\n').length;
  const fail = (detail: string): never => {
    const where = pos >= text.length ? 'at the end of the text' : `at line ${lineAt(pos)}, column ${pos - text.lastIndexOf('\n', pos - 1)}`;
    throw new ConfigFileError('', `not valid JSON: ${detail} ${where}`);
  };
  const ws = (): void => {
    JSON_WS.lastIndex = pos;
    JSON_WS.exec(text);
    pos = JSON_WS.lastIndex;
  };
  const string = (): string => {
    JSON_STRING.lastIndex = pos;
    const m = JSON_STRING.exec(text);
    if (m === null) fail(text[pos] === '"' ? 'a malformed string' : 'expected a string');
    pos = JSON_STRING.lastIndex;
    return JSON.parse(m![0]) as string;
  };
  type Frame =
    | { kind: 'object'; node: JSONMapping; path: string; key: string; lines: Map<string, number> }
    | { kind: 'array'; path: string; index: number };
  const stack: Frame[] = [];
  const pathHere = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return '';
    return top.kind === 'object' ? memberPath(top.path, top.key) : `${top.path}[${top.index}]`;
  };
  /** Reads a member name and the colon after it, into the object on top of the stack. */
  const key = (frame: Extract<Frame, { kind: 'object' }>): void => {
    const at = pos;
    const name = string();
    const first = frame.lines.get(name);
    if (first !== undefined) {
      throw new ConfigFileError(memberPath(frame.path, name), `is given twice in one object (lines ${first} and ${lineAt(at)})`);
    }
    frame.lines.set(name, lineAt(at));
    frame.key = name;
    ws();
    if (text[pos] !== ':') fail('expected ":"');
    pos++;
    ws();
  };

  ws();
  if (pos === text.length) return undefined; // an empty file (CONF-2)
  for (;;) {
    // A value starts at pos.
    let value: ConfigNode | undefined;
    const c = text[pos];
    if (c === '{' || c === '[') {
      const path = pathHere();
      pos++;
      ws();
      if (c === '{') {
        const node = new JSONMapping();
        if (text[pos] === '}') {
          pos++;
          value = node;
        } else {
          const frame = { kind: 'object' as const, node, path, key: '', lines: new Map<string, number>() };
          stack.push(frame);
          key(frame);
          continue;
        }
      } else if (text[pos] === ']') {
        pos++;
        value = LIST;
      } else {
        stack.push({ kind: 'array', path, index: 0 });
        continue;
      }
    } else if (c === '"') {
      value = { kind: 'scalar', value: string() };
    } else {
      JSON_NUMBER.lastIndex = pos;
      const m = JSON_NUMBER.exec(text);
      if (m !== null) {
        pos = JSON_NUMBER.lastIndex;
        value = { kind: 'scalar', value: Number(m[0]), source: m[0] };
      } else {
        const literal = ['true', 'false', 'null'].find((w) => text.startsWith(w, pos));
        if (literal === undefined) fail(pos >= text.length ? 'unexpected end' : `unexpected ${JSON.stringify(text[pos])}`);
        pos += literal!.length;
        value = { kind: 'scalar', value: literal === 'null' ? null : literal === 'true' };
      }
    }
    // The value is complete: hand it to the containers it closes.
    for (;;) {
      const top = stack[stack.length - 1];
      ws();
      if (top === undefined) {
        if (pos !== text.length) fail('more than one value: unexpected text');
        return value;
      }
      if (top.kind === 'object') {
        top.node.members.set(top.key, value!);
        if (text[pos] === ',') {
          pos++;
          ws();
          key(top);
          break;
        }
        if (text[pos] !== '}') fail('expected "," or "}"');
        pos++;
        stack.pop();
        value = top.node;
      } else {
        top.index++;
        if (text[pos] === ',') {
          pos++;
          ws();
          break;
        }
        if (text[pos] !== ']') fail('expected "," or "]"');
        pos++;
        stack.pop();
        value = LIST;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// YAML

const CORE = 'tag:yaml.org,2002:';
/** The tags of the YAML 1.2 core schema, and the non-specific tag `!`. */
const CORE_TAGS = new Set(['!', ...['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => CORE + t)]);
/** The core schema's number forms (YAML 1.2, 10.3.2), for a scalar tagged !!int or !!float explicitly. */
const CORE_INT = /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/;
const CORE_FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;

/** The line of a node (1-based). */
type LineOf = (node: { range?: readonly number[] | null | undefined }) => number;

const isMergeKey = (key: YAMLScalar): boolean =>
  key.tag === CORE + 'merge' || (key.tag === undefined && key.type === 'PLAIN' && key.value === '<<');

function readYAML(text: string): ConfigNode | undefined {
  const lines = new LineCounter();
  let docs: ReturnType<typeof parseAllDocuments>;
  try {
    docs = parseAllDocuments(text, { version: '1.2', schema: 'core', merge: false, uniqueKeys: false, lineCounter: lines, prettyErrors: true });
  } catch (e) {
    if (e instanceof RangeError) throw new ConfigFileError('', 'not valid YAML: nested deeper than this reader can follow');
    throw e;
  }
  const errors: Array<{ message: string }> = Array.isArray(docs) ? docs.flatMap((d) => d.errors) : (docs as { errors?: [] }).errors ?? [];
  if (errors.length > 0) {
    // The first line of a pretty error: what is wrong and `at line L, column C`.
    throw new ConfigFileError('', `not valid YAML: ${errors[0]!.message.split('\n')[0]!.replace(/:$/, '')}`);
  }
  if (!Array.isArray(docs) || docs.length === 0) return undefined; // no document at all (CONF-2)
  if (docs.length > 1) throw new ConfigFileError('', `holds ${docs.length} YAML documents; a config file is one document`);
  const doc = docs[0]!;
  const lineOf: LineOf = (node) => (node.range == null ? 0 : lines.linePos(node.range[0]!).line);
  checkYAMLStructure(doc, lineOf);
  checkYAMLValues(doc, lineOf);
  const contents = doc.contents;
  return contents === null ? undefined : yamlNode(doc, contents, lineOf);
}

/**
 * The name of a mapping key as JSON would hold it: a string as itself, a
 * number, boolean or null in its plain form; undefined for a key that is a
 * collection, which JSON cannot hold.
 */
function keyName(doc: Document, key: unknown): string | undefined {
  const node = isAlias(key) ? key.resolve(doc) : key;
  if (node === null || node === undefined) return 'null'; // an empty key
  if (!isScalar(node)) return undefined;
  const v = node.value;
  return v === null ? 'null' : String(v);
}

/**
 * The checks on the document as a whole (CONF-6): no key given twice in one
 * mapping, no merge key, no key JSON cannot hold — in every mapping, the
 * host's included. Walks each node once, without following aliases (what an
 * alias points at is checked where it is defined).
 */
function checkYAMLStructure(doc: Document, lineOf: LineOf): void {
  const stack: Array<{ node: unknown; path: string }> = [{ node: doc.contents, path: '' }];
  const checkPairs = (pairs: readonly Pair[], path: string): void => {
    const seen = new Map<string, number>();
    for (const pair of pairs) {
      const key = pair.key as YAMLNode | null;
      if (isScalar(key) && isMergeKey(key)) {
        throw new ConfigFileError(path, `line ${lineOf(key)}: merge keys (<<) are not allowed in a config file (YAML 1.2 has none)`);
      }
      const name = keyName(doc, key);
      if (name === undefined) {
        throw new ConfigFileError(path, `line ${lineOf(key as YAMLNode)}: a key that is a mapping or a list, which JSON cannot hold`);
      }
      const line = key === null ? lineOf(pair.value as YAMLNode) : lineOf(key);
      const first = seen.get(name);
      if (first !== undefined) throw new ConfigFileError(memberPath(path, name), `is given twice in one mapping (lines ${first} and ${line})`);
      seen.set(name, line);
      stack.push({ node: pair.value, path: memberPath(path, name) });
    }
  };
  while (stack.length > 0) {
    const { node, path } = stack.pop()!;
    if (isMap(node)) {
      checkPairs(node.items as Pair[], path);
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        // `[a: b]`: a flow sequence holding a mapping of one pair.
        if (isPair(item)) checkPairs([item as Pair], `${path}[${i}]`);
        else stack.push({ node: item, path: `${path}[${i}]` });
      });
    }
  }
}

/** The texts each core tag allows (YAML 1.2, 10.3.2), for a scalar tagged explicitly. */
const CORE_TEXT = new Map<string, RegExp>([
  [CORE + 'null', /^(?:~|null|Null|NULL|)$/],
  [CORE + 'bool', /^(?:true|True|TRUE|false|False|FALSE)$/],
  [CORE + 'int', CORE_INT],
  [CORE + 'float', /^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/],
]);

/**
 * D-48 over the whole document, the host's members included: an alias to no
 * anchor is not valid YAML (path ""); an alias inside the node it names
 * fails at the alias's path; a core tag on a text it does not match fails at
 * its path (`!!null x`, as D-40's `!!bool tomato`). Each node is entered
 * once; one met again while its children are walked is such an alias.
 */
function checkYAMLValues(doc: Document, lineOf: LineOf): void {
  const open = new Set<unknown>();
  const done = new Set<unknown>();
  const stack: Array<{ node: unknown; path: string; leave?: true }> = [{ node: doc.contents, path: '' }];
  while (stack.length > 0) {
    const { node, path, leave } = stack.pop()!;
    if (leave) {
      open.delete(node);
      done.add(node);
      continue;
    }
    let target = node;
    if (isAlias(node)) {
      target = node.resolve(doc);
      if (target === undefined) throw new ConfigFileError('', `not valid YAML: the alias *${node.source} refers to no anchor (line ${lineOf(node)})`);
    }
    if (open.has(target)) throw new ConfigFileError(path, `line ${lineOf(node as YAMLNode)}: the alias refers to the node it is in`);
    if (target === null || target === undefined || done.has(target)) continue;
    if (isScalar(target)) {
      done.add(target);
      const text = CORE_TEXT.get(target.tag ?? '');
      const source = typeof target.source === 'string' ? target.source : String(target.value);
      if (text !== undefined && !text.test(source)) {
        throw new ConfigFileError(path, `line ${lineOf(target)}: ${JSON.stringify(source)} is not a ${target.tag!.replace(CORE, '!!')}`);
      }
      continue;
    }
    open.add(target);
    stack.push({ node: target, path, leave: true });
    const children: Array<{ node: unknown; path: string }> = [];
    if (isMap(target)) {
      for (const pair of target.items as Pair[]) children.push({ node: pair.value, path: memberPath(path, keyName(doc, pair.key) ?? '') });
    } else if (isSeq(target)) {
      target.items.forEach((item, i) => children.push({ node: isPair(item) ? (item as Pair).value : item, path: `${path}[${i}]` }));
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
}

/** A node of the document, read lazily: a member's value is looked at when it is asked for. */
function yamlNode(doc: Document, node: unknown, lineOf: LineOf, path = ''): ConfigNode {
  const target = isAlias(node) ? node.resolve(doc) : node;
  if (target === undefined || target === null) return { kind: 'scalar', value: null };
  const t = target as YAMLNode;
  const at = `line ${lineOf(isAlias(node) ? node : t)}`;
  if (t.tag !== undefined && !CORE_TAGS.has(t.tag)) {
    throw new ConfigFileError(path, `${at}: the tag ${t.tag.replace(CORE, '!!')} is not in the YAML 1.2 core schema; JSON cannot hold its value`);
  }
  if (isScalar(t)) {
    let v = t.value;
    if (typeof v === 'string' && (t.tag === CORE + 'int' || t.tag === CORE + 'float')) {
      // An explicit number tag on a scalar the library left a string.
      if (CORE_FLOAT.test(v) || CORE_INT.test(v)) v = Number(v); // Number reads 0o17 and 0x1F as well
      else throw new ConfigFileError(path, `${at}: ${JSON.stringify(v)} is not a ${t.tag.replace(CORE, '!!')}`);
    }
    if (typeof v === 'number' && !Number.isFinite(v)) {
      throw new ConfigFileError(path, `${at}: ${t.source ?? String(v)} is not a number a config can hold (JSON has no infinity or NaN)`);
    }
    if (typeof v === 'number') return { kind: 'scalar', value: v, ...(t.source === undefined ? {} : { source: t.source }) };
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return { kind: 'scalar', value: v };
    throw new ConfigFileError(path, `${at}: a value JSON cannot hold`);
  }
  if (isMap(t)) {
    const pairs = t.items as Pair[];
    const names = pairs.map((p) => keyName(doc, p.key)!);
    return {
      kind: 'mapping',
      names,
      member(name: string, memberAt: string): ConfigNode | undefined {
        const i = names.indexOf(name);
        return i === -1 ? undefined : yamlNode(doc, pairs[i]!.value, lineOf, memberAt);
      },
    };
  }
  return LIST;
}
