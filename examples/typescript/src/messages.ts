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

/** Base class of the errors this library throws; `kind` is the protocol's error kind. */
export class ConvspecError extends Error {
  constructor(
    readonly kind: 'invalid_config' | 'invalid_message',
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

function classifyValid(m: Message): Classification {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { class: 'system', ids: [] };
    case 'assistant': {
      const ids: string[] = [];
      if (hasOwn(m, 'tool_calls')) {
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
  if (!wellFormed(m)) return 'contains a string that is not well-formed Unicode (an unpaired surrogate)';
  try {
    classifyValid(m as Message);
  } catch (e) {
    if (e instanceof ToolMemberError) return e.message;
    throw e;
  }
  return undefined;
}

/** Whether every string in a JSON value, member names included, is well-formed Unicode. */
function wellFormed(value: unknown): boolean {
  // An explicit stack: content may be nested deeper than the call stack allows.
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'string') {
      if (!v.isWellFormed()) return false;
    } else if (Array.isArray(v)) {
      for (const e of v) stack.push(e);
    } else if (isObject(v)) {
      for (const name of Object.keys(v)) {
        if (!name.isWellFormed()) return false;
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

/**
 * Splits a conversation into units (UNIT-1) after checking its tool structure
 * (UNIT-2). Returns, for every message, the index where its unit starts.
 * Throws InvalidMessageError naming the first index and the code of a broken
 * structure.
 */
export function unitStarts(messages: readonly unknown[]): number[] {
  validateMessages(messages);
  const problems: Array<{ index: number; code: StructureCode; detail: string }> = [];
  const problem = (index: number, code: StructureCode, detail: string): void => {
    problems.push({ index, code, detail });
  };
  const starts: number[] = [];
  const declared = new Set<string>();
  // The call whose results are being read, if any.
  let open: { index: number; ids: Set<string>; answered: Set<string> } | undefined;
  const close = (): void => {
    if (open === undefined) return;
    const missing = [...open.ids].filter((id) => !open!.answered.has(id));
    if (missing.length > 0) problem(open.index, 'unanswered_tool_call', `no result for ${missing.map((id) => JSON.stringify(id)).join(', ')}`);
    open = undefined;
  };

  (messages as readonly Message[]).forEach((m, i) => {
    const c = classifyValid(m);
    if (c.class === 'tool_result') {
      starts.push(open === undefined ? i : open.index);
      for (const id of c.ids) {
        if (open === undefined || !open.ids.has(id)) {
          problem(i, 'orphan_tool_result', `the result for ${JSON.stringify(id)} does not directly follow a call that declares it`);
        } else if (open.answered.has(id)) {
          problem(i, 'tool_call_answered_twice', `${JSON.stringify(id)} is answered a second time`);
        } else {
          open.answered.add(id);
        }
      }
      return;
    }
    close();
    starts.push(i);
    if (c.class === 'tool_call') {
      for (const id of c.ids) {
        if (declared.has(id)) problem(i, 'duplicate_tool_call_id', `the call id ${JSON.stringify(id)} is declared a second time`);
        declared.add(id);
      }
      open = { index: i, ids: new Set(c.ids), answered: new Set() };
    }
  });
  close();

  if (problems.length > 0) {
    // Name the first message of a broken structure.
    const first = problems.reduce((a, b) => (b.index < a.index ? b : a));
    throw new InvalidMessageError(`messages[${first.index}]: ${first.code}: ${first.detail}`);
  }
  return starts;
}
