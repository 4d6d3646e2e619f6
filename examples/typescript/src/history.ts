/**
 * Stored conversation history (spec/SPEC.md §2, §7, §8, capability
 * `history`): classes and units, pruning the user prompts that never got a
 * reply, and building the messages for a model call.
 */

import {
  type Message,
  type MessageClass,
  type StructureCode,
  analyzeStructure,
  classifyValid,
  describeStructure,
  unitRanges,
  unitStarts,
  validateMessages,
} from './messages';

export interface Classified {
  /** One class per message (CLS-1). */
  classes: MessageClass[];
  /** The units as half-open ranges [start, end) covering the conversation (UNIT-1). */
  units: Array<[number, number]>;
}

/**
 * The class of every message and the units of the conversation. Throws
 * InvalidMessageError for an invalid message or a broken tool structure,
 * naming it (CLS-2, UNIT-2).
 */
export function classifyConversation(messages: readonly unknown[]): Classified {
  const starts = unitStarts(messages);
  return { classes: (messages as readonly Message[]).map((m) => classifyValid(m).class), units: unitRanges(starts) };
}

/**
 * The positions of the user prompts PRUNE-1 removes: of every run of prompts
 * not separated by an assistant message, all but the last (PRUNE-2: nothing
 * else ends a run).
 */
function orphanedPrompts(classes: readonly MessageClass[]): number[] {
  const removed: number[] = [];
  let lastPrompt: number | undefined; // the latest prompt of the current run
  classes.forEach((c, i) => {
    if (c === 'user_prompt') {
      if (lastPrompt !== undefined) removed.push(lastPrompt);
      lastPrompt = i;
    } else if (c === 'assistant_text' || c === 'tool_call') {
      lastPrompt = undefined;
    }
  });
  return removed;
}

export interface PruneResult {
  messages: Message[];
  /** Input positions removed, ascending. */
  removed: number[];
}

/**
 * `pruneOrphanedUserMessages` (PRUNE-1 – PRUNE-4): the messages without the
 * user prompts that never got a reply. Does not look at tool structure.
 */
export function pruneOrphanedUserMessages(messages: readonly unknown[]): PruneResult {
  validateMessages(messages);
  const removed = orphanedPrompts(messages.map((m) => classifyValid(m).class));
  const gone = new Set(removed);
  return { messages: messages.filter((_, i) => !gone.has(i)), removed };
}

/** A broken tool structure that building dropped (BUILD-2). */
export interface Repair {
  code: StructureCode;
  message: string;
  indexes: number[];
}

export interface BuildResult {
  messages: Message[];
  warnings: Repair[];
}

/**
 * `buildLLMMessages` (BUILD-1 – BUILD-5): repairs the tool structure, prunes,
 * then keeps the leading system messages and the latest complete exchanges
 * within `maxMessages` others (0: no limit). Throws InvalidMessageError for
 * an invalid message; broken tool structures are dropped with a warning.
 */
export function buildLLMMessages(messages: readonly unknown[], maxMessages: number): BuildResult {
  if (!Number.isSafeInteger(maxMessages) || maxMessages < 0) throw new RangeError('maxMessages must be a non-negative integer');
  const { broken } = analyzeStructure(messages);

  // BUILD-2: drop every message of each broken structure, one warning each.
  const dropped = new Set(broken.flatMap((b) => b.indexes));
  const warnings = broken.map((b) => ({
    code: b.code,
    message: `dropped messages[${b.indexes.join(', ')}]: ${describeStructure(b)}`,
    indexes: [...b.indexes],
  }));
  const repaired = (messages as readonly Message[]).filter((_, i) => !dropped.has(i));

  // PRUNE-1.
  const repairedClasses = repaired.map((m) => classifyValid(m).class);
  const gone = new Set(orphanedPrompts(repairedClasses));
  const pruned = repaired.filter((_, i) => !gone.has(i));
  const classes = repairedClasses.filter((_, i) => !gone.has(i));

  // BUILD-3: the leading system messages, then a suffix of the rest.
  let lead = 0;
  while (lead < pruned.length && classes[lead] === 'system') lead++;
  const rest = pruned.slice(lead);
  const r = rest.length;
  if (maxMessages === 0 || r <= maxMessages) return { messages: pruned, warnings };
  const starts = unitStarts(rest); // well-formed once repaired
  const unitHeads = starts.flatMap((s, i) => (s === i ? [i] : []));
  const fitting = unitHeads.filter((i) => r - i <= maxMessages);
  const begin =
    fitting.find((i) => classes[lead + i] === 'user_prompt') ?? // a complete exchange
    fitting[0] ?? // a unit boundary
    unitHeads[unitHeads.length - 1]!; // the last unit alone is longer (BUILD-4)
  return { messages: [...pruned.slice(0, lead), ...rest.slice(begin)], warnings };
}
