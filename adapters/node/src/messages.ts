// Messages as the kit sees them: MSG-1 checked before the library is called,
// and the helper that maps rebuilt messages back to the messages given (MSG-2).

import { invalidMessage } from './errors';

/** A message (MSG-1): a JSON object with a non-empty string `role`; anything else is allowed. */
export interface Message {
  role: string;
  content?: unknown;
  [member: string]: unknown;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);

/** How a JSON value is named in an error message. */
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

/** A UTF-16 code unit that is half of no surrogate pair (in a `u` pattern a pair is one code point). */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** Whether every string in a JSON value, member names included, is well-formed Unicode. */
function wellFormed(value: unknown): boolean {
  const stack: unknown[] = [value]; // content may be nested deeper than the call stack allows
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

/** What makes a value not a message (MSG-1), or undefined. */
export function messageProblem(m: unknown): string | undefined {
  if (!isObject(m)) return `must be an object, got ${typeName(m)}`;
  if (!hasOwn(m, 'role')) return '"role" is missing';
  const role = m.role;
  if (typeof role !== 'string' || role === '') {
    return `"role" must be a non-empty string, got ${typeof role === 'string' ? 'an empty string' : typeName(role)}`;
  }
  if (!wellFormed(m)) return 'contains a string that is not well-formed Unicode (an unpaired surrogate or bytes that are not UTF-8)';
  return undefined;
}

/** Throws `invalid_message` naming the first element that is not a message; `where(i)` names element i. */
export function checkMessages(messages: readonly unknown[], where: (i: number) => string = (i) => `messages[${i}]`): asserts messages is Message[] {
  messages.forEach((m, i) => {
    const problem = messageProblem(m);
    if (problem !== undefined) throw invalidMessage(`${where(i)}: ${problem}`);
  });
}

/** JSON-equality of MSG-2 (numbers as doubles, member order free), without the call stack. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (Array.isArray(x)) {
      if (!Array.isArray(y) || x.length !== y.length) return false;
      x.forEach((e, i) => stack.push([e, y[i]]));
    } else if (isObject(x)) {
      if (!isObject(y)) return false;
      const names = Object.keys(x).filter((n) => x[n] !== undefined);
      if (names.length !== Object.keys(y).filter((n) => y[n] !== undefined).length) return false;
      for (const n of names) {
        if (!hasOwn(y, n)) return false;
        stack.push([x[n], y[n]]);
      }
    } else {
      return false; // distinct strings, numbers, booleans, or different types (NaN is not JSON)
    }
  }
  return true;
}

/**
 * Whether `rebuilt` may stand for `given`: an object each of whose members is
 * a member of `given` with a JSON-equal value (a rebuilt message may leave
 * members out, but not change or add one).
 */
export function partOf(rebuilt: unknown, given: Message): boolean {
  if (!isObject(rebuilt)) return false;
  for (const name of Object.keys(rebuilt)) {
    if (rebuilt[name] === undefined) continue;
    if (!hasOwn(given, name) || !jsonEqual(rebuilt[name], given[name])) return false;
  }
  return true;
}

/**
 * For a library that rebuilds the messages it returns (new objects, members
 * dropped): maps each rebuilt message back to the message it stands for among
 * `given`, so that the kit answers with the exact input (MSG-2). The rebuilt
 * messages that `same` accepts (by default `partOf`: the library left members
 * out) are matched to given ones in order, each used once (results keep the
 * order of their input); where a message could stand for several, it takes
 * the first JSON-equal to it that still leaves the rest a match, or else the
 * first. A rebuilt message that matches none (a summary, say) is kept as it
 * is. Messages equal in every member the library kept are told apart by
 * order alone.
 */
export function restore<T>(rebuilt: readonly T[], given: readonly Message[], same: (rebuilt: T, given: Message) => boolean = partOf): Array<T | Message> {
  // latest[k]: the last place rebuilt[k] can take with the rest still matched (-1: it matches none).
  const latest: number[] = new Array<number>(rebuilt.length).fill(-1);
  for (let k = rebuilt.length - 1, j = given.length - 1; k >= 0; k--) {
    let i = j;
    while (i >= 0 && !same(rebuilt[k]!, given[i]!)) i--;
    if (i >= 0) [latest[k], j] = [i, i - 1];
  }
  let from = 0;
  return rebuilt.map((r, k) => {
    const last = latest[k]!;
    if (last === -1) return r;
    let pick = -1;
    for (let i = from; i <= last && pick === -1; i++) if (jsonEqual(r, given[i])) pick = i;
    for (let i = from; i <= last && pick === -1; i++) if (same(r, given[i]!)) pick = i;
    from = pick + 1;
    return given[pick]!;
  });
}

/**
 * Splits off a leading system prompt, for a library that takes it as a
 * separate argument: `{ system, rest }`, where `system` is the first
 * message's content when that message has role `system` and string content.
 */
export function peelSystem(messages: readonly Message[]): { system: string | undefined; rest: Message[] } {
  const first = messages[0];
  if (first !== undefined && first.role === 'system' && typeof first.content === 'string') {
    return { system: first.content, rest: messages.slice(1) };
  }
  return { system: undefined, rest: [...messages] };
}
