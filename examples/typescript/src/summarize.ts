/**
 * Summaries of conversation history (spec/SPEC.md §6a, capability
 * `window.summarize`): the prompt a summarizer is given (SUM-1), calling it
 * with a time limit, and `summarize(messages)` (SUM-9). The window's use of
 * summaries (SUM-2 – SUM-8) is in window.ts.
 */

import { writeJSON } from './json';
import { ConvspecError, type Message, classifyValid, isObject, typeName, validateMessages } from './messages';

/**
 * s without leading and trailing white space, which is Unicode's White_Space
 * property (spec section 6a, D-31) — not String.prototype.trim's idea of it,
 * which also removes U+FEFF.
 */
export const trimWhiteSpace = (s: string): string =>
  s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, '');

export const SUMMARY_INSTRUCTION =
  'Summarize the following conversation history concisely. Focus on: what files were read/written, ' +
  'what decisions were made, what problems were encountered, and what the current state of the task is. ' +
  'Be factual and brief.';

/** Every summarizer call asks for at most this many tokens. */
export const SUMMARY_MAX_TOKENS = 1024;

/** How long a summarizer call may take before it counts as failed, unless told otherwise. */
export const DEFAULT_SUMMARIZER_TIMEOUT_MS = 30_000;

/** The summarizer callback, injected by the caller: the summary text of a prompt. */
export type Summarizer = (prompt: string, maxTokens: number) => Promise<string> | string;

/** The summarizer failed, did not answer in time, or answered nothing (SUM-9). */
export class SummarizerError extends ConvspecError {
  /**
   * @param reason what went wrong in the summarizer's own words (its error
   *   message), or a description of the failure when it gave none
   */
  constructor(
    message: string,
    readonly reason = message,
  ) {
    super('summarizer_failed', message);
  }
}

/** JSON.stringify's compact form, also for values nested deeper than the call stack allows (EST-3). */
export function compact(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
  }
  return writeJSON(value, (n) => JSON.stringify(n));
}

const hasOwn = (o: object, name: string): boolean => Object.prototype.hasOwnProperty.call(o, name);

/** A member shown in a prompt: a string as itself, another value in compact form, an absent one as nothing. */
function asText(o: Record<string, unknown>, name: string): string {
  if (!hasOwn(o, name)) return '';
  const v = o[name];
  return typeof v === 'string' ? v : compact(v);
}

/** The parts content renders as (SUM-1). */
function contentParts(content: unknown): string[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [compact(content)];
  return content.map((block) => {
    const type = isObject(block) ? block.type : undefined;
    if (isObject(block) && type === 'text') return asText(block, 'text');
    if (isObject(block) && type === 'tool_use') {
      return `tool_use ${asText(block, 'name')} ${hasOwn(block, 'input') ? compact(block.input) : '{}'}`;
    }
    if (isObject(block) && type === 'tool_result') {
      return `tool_result ${asText(block, 'tool_use_id')}: ${contentParts(block.content).join('\n')}`;
    }
    return compact(block);
  });
}

/** One message as a summary prompt shows it: `[role] ` and its parts joined by newlines (SUM-1). */
export function renderMessage(m: Message): string {
  const parts =
    m.role === 'tool' ? [`tool_result ${asText(m, 'tool_call_id')}: ${contentParts(m.content).join('\n')}`] : contentParts(m.content);
  if (Array.isArray(m.tool_calls)) {
    for (const call of m.tool_calls) {
      const fn = isObject(call) && isObject(call.function) ? call.function : {};
      parts.push(`tool_call ${asText(fn, 'name')} ${asText(fn, 'arguments')}`);
    }
  }
  return `[${m.role}] ${parts.join('\n')}`;
}

/** The prompt of a summarizer call covering `messages` (SUM-1). */
export function summaryPrompt(messages: readonly Message[]): string {
  return `${SUMMARY_INSTRUCTION}\n\n${messages.map(renderMessage).join('\n\n')}`;
}

/**
 * Whether a message that is not a tool result has text with a character
 * other than white space: string content, or a text block's text (SUM-6).
 * White space is what String.prototype.trim removes.
 */
export function hasText(messages: readonly Message[]): boolean {
  return messages.some((m) => {
    if (classifyValid(m).class === 'tool_result') return false;
    const content = m.content;
    if (typeof content === 'string') return trimWhiteSpace(content) !== '';
    return Array.isArray(content) && content.some((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string' && trimWhiteSpace(b.text) !== '');
  });
}

/**
 * Runs a summarizer call, giving up after `timeoutMs`. Throws
 * SummarizerError when the call throws or rejects, answers something that
 * is not a string, or has not answered in time.
 */
export async function withTimeout(call: () => Promise<unknown> | unknown, timeoutMs = DEFAULT_SUMMARIZER_TIMEOUT_MS): Promise<string> {
  let timer: unknown;
  const late = `the summarizer did not answer within ${timeoutMs} ms`;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SummarizerError(late)), timeoutMs);
  });
  try {
    const reply = await Promise.race([Promise.resolve().then(call), timeout]);
    if (typeof reply !== 'string') throw new SummarizerError(`the summarizer answered ${typeName(reply)}, not text`);
    return reply;
  } catch (e) {
    if (e instanceof SummarizerError) throw e;
    const reason = e instanceof Error ? e.message : String(e);
    throw new SummarizerError(`the summarizer failed: ${reason}`, reason);
  } finally {
    clearTimeout(timer);
  }
}

/** Calls the summarizer with a prompt and max_tokens 1024 (SUM-1); its reply as given. */
export function callSummarizer(summarizer: Summarizer, prompt: string, timeoutMs?: number): Promise<string> {
  return withTimeout(() => summarizer(prompt, SUMMARY_MAX_TOKENS), timeoutMs);
}

/**
 * `summarize(messages)` (SUM-9): one summarizer call with the prompt of
 * SUM-1; the reply without leading and trailing white space. Throws
 * SummarizerError for a failed or empty reply, InvalidMessageError for an
 * invalid message.
 */
export async function summarize(messages: readonly unknown[], summarizer: Summarizer, timeoutMs?: number): Promise<string> {
  validateMessages(messages);
  const reply = trimWhiteSpace(await callSummarizer(summarizer, summaryPrompt(messages), timeoutMs));
  if (reply === '') throw new SummarizerError("the summarizer's reply is empty");
  return reply;
}
