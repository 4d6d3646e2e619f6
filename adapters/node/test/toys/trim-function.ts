// A toy library of the second shape the kit must fit: pure functions that
// take the system prompt as a separate argument and return rebuilt message
// objects (new objects, never the ones given). It borrows its trimming from
// the TypeScript example (this is a test of the kit's fit, not of trimming).

import { buildLLMMessages, classifyConversation, pruneOrphanedUserMessages } from '../../../../examples/typescript/src/history';
import { ConversationWindow, type Message } from '../../../../examples/typescript/src/window';

const rebuild = (m: Message): Message => ({ ...m });

/** The options with their defaults, and warnings about them (throws for a bad one). */
export function checkOptions(options: unknown) {
  const w = new ConversationWindow(options);
  return { options: w.config, warnings: w.warnings };
}

export function trimConversation(system: string | undefined, messages: readonly Message[], options: object) {
  const all = system === undefined ? messages : [{ role: 'system', content: system }, ...messages];
  const r = new ConversationWindow(options).trim(all);
  return { messages: r.trimmed.map(rebuild), removed: r.evicted.map(rebuild), stats: r.metrics, warnings: r.warnings };
}

export const estimate = (messages: readonly Message[]): number => new ConversationWindow({}).estimateTokens(messages);

export const classify = (messages: readonly Message[]) => classifyConversation(messages);

/** The prompts that got no reply, left out; and where they were. */
export function withoutOrphans(messages: readonly Message[]) {
  const r = pruneOrphanedUserMessages(messages);
  return { messages: r.messages.map(rebuild), at: r.removed };
}

export function build(messages: readonly Message[], max: number) {
  const r = buildLLMMessages(messages, max);
  return { messages: r.messages.map(rebuild), repairs: r.warnings };
}
