/**
 * The message model of convspec (spec/SPEC.md §1–2): what a message is
 * (MSG-1), its class (CLS-1, CLS-2) and the tool-call units a conversation is
 * made of (UNIT-1, UNIT-2).
 */

/** A chat message (MSG-1): a JSON object with a non-empty string `role`. */
export interface Message {
  role: string;
  content?: unknown;
  [member: string]: unknown;
}

/** The error kinds of spec/protocol.md that the library's operations raise. */
export type ErrorKind =
  | 'invalid_config'
  | 'invalid_message'
  | 'summarizer_failed'
  | 'unknown_model'
  | 'invariant_violation'
  | 'context_window_exhausted';

/** Base class of the errors this library throws; `kind` is the protocol's error kind. */
export class ConvspecError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A configuration breaks CFG-3 or CFG-4. */
export class InvalidConfigError extends ConvspecError {
  constructor(message: string) {
    super('invalid_config', message);
  }
}

/** A message breaks MSG-1 or CLS-2, or a conversation's tool structure is broken (UNIT-2). */
export class InvalidMessageError extends ConvspecError {
  constructor(message: string) {
    super('invalid_message', message);
  }
}

export type MessageClass = 'system' | 'tool_call' | 'assistant_text' | 'tool_result' | 'user_prompt' | 'other';

/** A message's class and, for calls and results, the ids it declares or answers (CLS-1). */
export interface Classification {
  readonly class: MessageClass;
  readonly ids: readonly string[];
}

/** The codes of UNIT-2's malformed structures. */
export type StructureCode =
  | 'orphan_tool_result'
  | 'unanswered_tool_call'
  | 'duplicate_tool_call_id'
  | 'tool_call_answered_twice';

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    default:
      return typeof value;
  }
}

const isId = (v: unknown): v is string => typeof v === 'string' && v !== '';

/** Thrown by classify for a message whose tool members cannot be read (CLS-2). */
class ToolMemberError extends Error {}

/** The blocks of a content array with the given `type`, with their positions. */
function blocks(content: unknown, type: string): Array<[number, Record<string, unknown>]> {
  if (!Array.isArray(content)) return [];
  const found: Array<[number, Record<string, unknown>]> = [];
  content.forEach((b, j) => {
    if (isObject(b) && b.type === type) found.push([j, b]);
  });
  return found;
}

/** The class of a message already known to be valid. */
export function classifyValid(m: Message): Classification {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { class: 'system', ids: [] };
    case 'assistant': {
      const ids: string[] = [];
      if (hasOwn(m, 'tool_calls') && m.tool_calls !== null) { // null is the member absent (D-38)
        const calls = m.tool_calls;
        if (!Array.isArray(calls)) throw new ToolMemberError(`"tool_calls" must be an array of objects, got ${typeName(calls)}`);
        calls.forEach((call, j) => {
          if (!isObject(call)) throw new ToolMemberError(`tool_calls[${j}] must be an object, got ${typeName(call)}`);
          if (!isId(call.id)) throw new ToolMemberError(`tool_calls[${j}].id must be a non-empty string`);
          ids.push(call.id);
        });
      }
      for (const [j, block] of blocks(m.content, 'tool_use')) {
        if (!isId(block.id)) throw new ToolMemberError(`content[${j}] (tool_use).id must be a non-empty string`);
        ids.push(block.id);
      }
      return ids.length > 0 ? { class: 'tool_call', ids } : { class: 'assistant_text', ids: [] };
    }
    case 'tool':
      if (!isId(m.tool_call_id)) throw new ToolMemberError('"tool_call_id" must be a non-empty string');
      return { class: 'tool_result', ids: [m.tool_call_id] };
    case 'user': {
      const results = blocks(m.content, 'tool_result');
      if (results.length === 0) return { class: 'user_prompt', ids: [] };
      const ids = results.map(([j, block]) => {
        if (!isId(block.tool_use_id)) throw new ToolMemberError(`content[${j}] (tool_result).tool_use_id must be a non-empty string`);
        return block.tool_use_id;
      });
      return { class: 'tool_result', ids };
    }
    default:
      return { class: 'other', ids: [] };
  }
}

/** What is wrong with a single message (MSG-1, CLS-2), or undefined. */
function messageProblem(m: unknown): string | undefined {
  if (!isObject(m)) return `must be an object, got ${typeName(m)}`;
  if (!hasOwn(m, 'role')) return '"role" is missing';
  const role = m.role;
  if (typeof role !== 'string' || role === '') {
    return `"role" must be a non-empty string, got ${typeof role === 'string' ? 'an empty string' : typeName(role)}`;
  }
  if (!wellFormed(m)) return 'contains a string that is not well-formed Unicode (an unpaired surrogate or bytes that are not UTF-8)';
  try {
    classifyValid(m as Message);
  } catch (e) {
    if (e instanceof ToolMemberError) return e.message;
    throw e;
  }
  return undefined;
}

/**
 * A UTF-16 code unit that is half of no surrogate pair: in a `u` pattern a
 * pair is one code point, so only lone halves fall in the range.
 * (String.prototype.isWellFormed says the same, from Node 20 on.)
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Whether every string in a JSON value, member names included, is well-formed Unicode. */
function wellFormed(value: unknown): boolean {
  // An explicit stack: content may be nested deeper than the call stack allows.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (LONE_SURROGATE.test(v)) return false;
    } else if (Array.isArray(v)) {
      for (const e of v) stack.push(e);
    } else if (isObject(v)) {
      for (const name of Object.keys(v)) {
        if (LONE_SURROGATE.test(name)) return false;
        stack.push(v[name]);
      }
    }
  }
  return true;
}

/**
 * Checks that every element of `messages` is a message (MSG-1) whose tool
 * members can be read (CLS-2); throws an InvalidMessageError naming the first
 * one that is not.
 */
export function validateMessages(messages: readonly unknown[]): asserts messages is readonly Message[] {
  messages.forEach((m, i) => {
    const problem = messageProblem(m);
    if (problem !== undefined) throw new InvalidMessageError(`messages[${i}]: ${problem}`);
  });
}

/** The class of a message (CLS-1); throws InvalidMessageError if it is not a valid message. */
export function classify(message: unknown): Classification {
  validateMessages([message]);
  return classifyValid(message as Message);
}

/** A malformed tool structure (UNIT-2): its code and every message it is made of. */
export interface BrokenStructure {
  readonly code: StructureCode;
  /** The messages of the structure, ascending; the first names it (the call, or the orphaned result). */
  readonly indexes: readonly number[];
  readonly detail: string;
  /** The message to name when it is not the first: a stranger's result that broke its call's structure. */
  readonly at?: number;
}

/** `messages[i]: code: detail`, naming a broken structure. */
export const describeStructure = (b: BrokenStructure): string => `messages[${b.at ?? b.indexes[0]}]: ${b.code}: ${b.detail}`;

/** The tool structure of a conversation (UNIT-1, UNIT-2). */
export interface Structure {
  /** For every message, the index where its unit starts. */
  readonly starts: readonly number[];
  /** The malformed structures, ordered by the message that names them. */
  readonly broken: readonly BrokenStructure[];
}

/**
 * Reads the tool structure of a conversation. A call with a defect (an id
 * declared before or twice, answered twice, or left unanswered) is broken
 * together with the results that directly follow it; a result that does not
 * answer the call it directly follows is broken alone. Throws
 * InvalidMessageError for an invalid message (MSG-1, CLS-2).
 */
export function analyzeStructure(messages: readonly unknown[]): Structure {
  validateMessages(messages);
  const starts: number[] = [];
  const broken: BrokenStructure[] = [];
  const declared = new Set<string>();
  // The call whose results are being read, if any.
  let open:
    | { index: number; ids: Set<string>; results: number[]; answered: Set<string>; defect?: { code: StructureCode; detail: string } }
    | undefined;
  const close = (): void => {
    if (open === undefined) return;
    const missing = [...open.ids].filter((id) => !open!.answered.has(id));
    if (missing.length > 0 && open.defect === undefined) {
      open.defect = { code: 'unanswered_tool_call', detail: `no result for ${missing.map((id) => JSON.stringify(id)).join(', ')}` };
    }
    if (open.defect !== undefined) broken.push({ ...open.defect, indexes: [open.index, ...open.results] });
    open = undefined;
  };

  messages.forEach((m, i) => {
    const c = classifyValid(m as Message);
    if (c.class === 'tool_result') {
      // A complete unit takes no more results (BUILD-2, D-32).
      if (open !== undefined && [...open.ids].every((id) => open!.answered.has(id))) close();
      starts.push(open === undefined ? i : open.index);
      const undeclared = c.ids.find((id) => open === undefined || !open.ids.has(id));
      if (undeclared !== undefined && open !== undefined) {
        // A stranger ends the call's structure, which breaks as a whole under
        // the first code that applies (BUILD-2, D-32).
        for (const id of c.ids) {
          if (!open.ids.has(id)) continue;
          if (open.answered.has(id)) {
            open.defect ??= { code: 'tool_call_answered_twice', detail: `${JSON.stringify(id)} is answered a second time (messages[${i}])` };
          }
          open.answered.add(id);
        }
        open.results.push(i);
        open.defect ??= {
          code: 'orphan_tool_result',
          detail: `the result for ${JSON.stringify(undeclared)} follows the call at messages[${open.index}], which does not declare it`,
        };
        broken.push({
          ...open.defect,
          indexes: [open.index, ...open.results],
          ...(open.defect.code === 'orphan_tool_result' ? { at: i } : {}),
        });
        open = undefined;
        return;
      }
      if (undeclared !== undefined) {
        broken.push({
          code: 'orphan_tool_result',
          indexes: [i],
          detail: `the result for ${JSON.stringify(undeclared)} does not directly follow a call that declares it`,
        });
        return;
      }
      open!.results.push(i);
      for (const id of c.ids) {
        if (open!.answered.has(id)) {
          open!.defect ??= { code: 'tool_call_answered_twice', detail: `${JSON.stringify(id)} is answered a second time (messages[${i}])` };
        }
        open!.answered.add(id);
      }
      return;
    }
    close();
    starts.push(i);
    if (c.class === 'tool_call') {
      const ids = new Set<string>();
      let defect: { code: StructureCode; detail: string } | undefined;
      for (const id of c.ids) {
        if (defect === undefined && (declared.has(id) || ids.has(id))) {
          defect = { code: 'duplicate_tool_call_id', detail: `the call id ${JSON.stringify(id)} is declared a second time` };
        }
        ids.add(id);
      }
      for (const id of ids) declared.add(id);
      open = { index: i, ids, results: [], answered: new Set(), ...(defect === undefined ? {} : { defect }) };
    }
  });
  close();
  broken.sort((a, b) => a.indexes[0]! - b.indexes[0]!);
  return { starts, broken };
}

/**
 * Splits a conversation into units (UNIT-1) after checking its tool structure
 * (UNIT-2). Returns, for every message, the index where its unit starts.
 * Throws InvalidMessageError naming the index and the code of every broken
 * structure, the first one first.
 */
export function unitStarts(messages: readonly unknown[]): number[] {
  const { starts, broken } = analyzeStructure(messages);
  if (broken.length > 0) throw new InvalidMessageError(broken.map(describeStructure).join('; '));
  return [...starts];
}

/** The units of a conversation as half-open ranges [start, end), from unitStarts. */
export function unitRanges(starts: readonly number[]): Array<[number, number]> {
  const bounds = starts.flatMap((s, i) => (s === i ? [i] : []));
  bounds.push(starts.length);
  return bounds.slice(1).map((end, k) => [bounds[k]!, end]);
}
