// Reading the params of each method (spec/protocol.md, "Methods"): every
// member checked, and a bad one answered `invalid_params` naming it.

import { invalidParams } from './errors';
import { type Message, checkMessages, hasOwn, isObject, typeName } from './messages';
import { Script } from './summarizer';
import { serialize } from './json';

export type Params = Record<string, unknown>;

/** params as an object; `{}` when absent and not required. */
export function objectParams(req: Record<string, unknown>, required: boolean): Params {
  if (!hasOwn(req, 'params') || req.params === null) {
    if (required) throw invalidParams('params: missing');
    return {};
  }
  if (!isObject(req.params)) throw invalidParams('params: must be an object');
  return req.params;
}

/** A required member (null counts as missing). */
export function member(params: Params, name: string): unknown {
  if (!hasOwn(params, name) || params[name] === null) throw invalidParams(`params.${name}: missing`);
  return params[name];
}

const absent = (params: Params, name: string): boolean => !hasOwn(params, name) || params[name] === null;

/** `messages`: an array of messages (MSG-1). */
export function messages(params: Params): Message[] {
  const v = member(params, 'messages');
  if (!Array.isArray(v)) throw invalidParams('params.messages: must be an array of messages');
  checkMessages(v);
  return v;
}

export function string(params: Params, name: string): string {
  const v = member(params, name);
  if (typeof v !== 'string') throw invalidParams(`params.${name}: must be a string, got ${typeName(v)}`);
  return v;
}

/** `model`: a non-empty string. */
export function model(params: Params): string {
  const v = string(params, 'model');
  if (v === '') throw invalidParams('params.model: must not be empty');
  return v;
}

/** A count (CFG-3): a number whose value is an integer from 0 to 2^53 − 1. */
export const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** `limits`: extra models and their limits, each a positive count (LIM-1). */
export function limits(params: Params): Map<string, number> {
  const out = new Map<string, number>();
  if (absent(params, 'limits')) return out;
  const v = params.limits;
  if (!isObject(v)) throw invalidParams(`params.limits: must be an object, got ${typeName(v)}`);
  for (const [name, limit] of Object.entries(v)) {
    if (!isCount(limit) || limit === 0) {
      throw invalidParams(`params.limits[${JSON.stringify(name)}]: must be a positive integer, got ${serialize(limit)}`);
    }
    out.set(name, limit);
  }
  return out;
}

/** `target_ratio`: above 0, at most 1, at most two decimals; 0.80 when absent. */
export function targetRatio(params: Params): number {
  if (absent(params, 'target_ratio')) return 0.8;
  const r = params.target_ratio;
  if (typeof r !== 'number' || !(r > 0 && r <= 1) || Math.abs(r * 100 - Math.round(r * 100)) > 1e-9) {
    throw invalidParams(`params.target_ratio: must be a number above 0 and at most 1 with at most two decimals, got ${serialize(r)}`);
  }
  return r;
}

/** `max_messages` of history.build: a count. */
export function maxMessages(params: Params): number {
  const v = member(params, 'max_messages');
  if (!isCount(v)) throw invalidParams(`params.max_messages: must be a non-negative integer, got ${serialize(v)}`);
  return v === 0 ? 0 : v; // -0 is 0
}

/** `summarizer`: one script; undefined when absent. */
export function summarizer(params: Params): Script | undefined {
  return absent(params, 'summarizer') ? undefined : new Script(params.summarizer, 'params.summarizer');
}

/** `summarizers` of loop.run: scripts for the successive calls; absent or empty, none. */
export function summarizers(params: Params): Script[] {
  if (absent(params, 'summarizers')) return [];
  return array(params, 'summarizers', 'params').map((s, i) => new Script(s, `params.summarizers[${i}]`));
}

/** A config file, `{"format": "yaml" | "json", "text": string}`. */
export interface ConfigFile {
  format: 'yaml' | 'json';
  text: string;
}

export function configFile(params: Params): ConfigFile {
  const v = member(params, 'config');
  if (!isObject(v)) throw invalidParams(`params.config: must be an object with format and text, got ${typeName(v)}`);
  const { format, text } = v;
  if (format !== 'yaml' && format !== 'json') {
    throw invalidParams(`params.config.format: must be "yaml" or "json", got ${serialize(format ?? null)}`);
  }
  if (typeof text !== 'string') throw invalidParams(`params.config.text: must be a string, got ${typeName(text)}`);
  return { format, text };
}

function array(o: Record<string, unknown>, name: string, where: string): unknown[] {
  const v = o[name];
  if (!Array.isArray(v)) throw invalidParams(`${where}.${name}: must be an array, got ${v === undefined ? 'nothing' : typeName(v)}`);
  return v;
}

/** The run loop.run scripts: the conversation before it, then per iteration a prompt and the model's turns. */
export interface ScriptedRun {
  initial: Message[];
  iterations: Array<{ prompt: Message; turns: Array<{ response: Message; results: Message[] }> }>;
}

/**
 * `initial` and `iterations` of loop.run, every message checked (MSG-1) and
 * named by its place in the run (`iterations[0].turns[1].results[0]`), which
 * `place` records.
 */
export function scriptedRun(params: Params, place: (m: unknown, where: string) => void): ScriptedRun {
  const msg = (m: unknown, where: string): Message => {
    checkMessages([m], () => where);
    place(m, where);
    return m as Message;
  };
  const initialRaw = array(params, 'initial', 'params');
  const iterationsRaw = array(params, 'iterations', 'params');
  const iterations = iterationsRaw.map((it, i) => {
    const where = `params.iterations[${i}]`;
    if (!isObject(it)) throw invalidParams(`${where}: must be an object with prompt and turns, got ${typeName(it)}`);
    if (it.prompt === undefined || it.prompt === null) throw invalidParams(`${where}.prompt: missing`);
    const turns = array(it, 'turns', where).map((turn, j) => {
      const at = `${where}.turns[${j}]`;
      if (!isObject(turn)) throw invalidParams(`${at}: must be an object with response and results, got ${typeName(turn)}`);
      if (turn.response === undefined || turn.response === null) throw invalidParams(`${at}.response: missing`);
      // No results (the final answer): `[]`, absent or null.
      const results = turn.results === undefined || turn.results === null ? [] : array(turn, 'results', at);
      return { response: turn.response, results };
    });
    return { prompt: it.prompt, turns };
  });
  // Checked after the shape, so that a malformed run is invalid_params before any invalid_message.
  const initial = initialRaw.map((m, i) => msg(m, `initial[${i}]`));
  return {
    initial,
    iterations: iterations.map((it, i) => ({
      prompt: msg(it.prompt, `iterations[${i}].prompt`),
      turns: it.turns.map((t, j) => ({
        response: msg(t.response, `iterations[${i}].turns[${j}].response`),
        results: t.results.map((r, k) => msg(r, `iterations[${i}].turns[${j}].results[${k}]`)),
      })),
    })),
  };
}
