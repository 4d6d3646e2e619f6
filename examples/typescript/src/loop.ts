/**
 * The conversation of an agent's provider loop (spec/SPEC.md §8c, capability
 * `loop`): each executor iteration appends a user prompt, then the provider
 * calls the model, appending its tool calls and their results, until it
 * answers without tools. The conversation is trimmed with one window before
 * every model call and once more before it is handed to the next iteration
 * (LOOP-1, LOOP-3), and never loses its first message (LOOP-2). A trim
 * refuses a broken tool structure (UNIT-2) with InvalidMessageError naming
 * its index in the conversation as it stood.
 */

import { type Message, InvalidMessageError, validateMessages } from './messages';
import type { Summarizer } from './summarize';
import { ConversationWindow, type EffectiveConfig, type TrimResult, type Warning, estimateTokens } from './window';

export const PRESERVE_FIRST_RAISED = 'preserve_first_raised';
export const CONVERSATION_TRIMMED = 'conversation_trimmed';
export const CONVERSATION_METRICS = 'conversation_metrics';
export const CONVERSATION_APPROACHING_LIMIT = 'conversation_approaching_limit';

/** The conversationState handed from one executor iteration to the next, and what the iteration reports (LOOP-3, LOOP-4). */
export interface IterationResult {
  state: Message[];
  metrics: { messageCount: number; estimatedTokens: number };
  /**
   * preserve_first_raised (first iteration), conversation_trimmed for each
   * trim that evicted messages and every trim's warnings, conversation_metrics,
   * conversation_approaching_limit.
   */
  events: Warning[];
}

export interface ProviderConversationOptions {
  /** Condenses evicted messages when the configuration has `summarize_on_trim` (SUM-2 – SUM-8). */
  summarizer?: Summarizer;
  /** How long to wait for a summarizer call (default 30 s); a function is asked before each trim. */
  timeoutMs?: number | (() => number);
}

/**
 * One conversation of a provider loop. Use: `startIteration(prompt)`, then
 * for every model call `await request()` (the messages to send) and
 * `append(response, ...results)`, then `await finishIteration()`.
 */
export class ProviderConversation {
  /** The window the whole run shares, so that SUM-4's pending list spans iterations. */
  readonly window: ConversationWindow;
  private state: Message[];
  private events: Warning[] = [];
  private iterations = 0;
  private readonly raised: boolean;

  /**
   * `config` is the effective configuration (of a config file, say); a
   * `preserve_first_n` of 0 is raised to 1 (LOOP-2, D-28). `initial` is the
   * conversation before the first iteration: the OpenAI system prompt, or
   * nothing (Anthropic's first message is the first prompt).
   */
  constructor(
    readonly config: Readonly<EffectiveConfig>,
    initial: readonly Message[],
    private readonly options: ProviderConversationOptions = {},
  ) {
    this.raised = config.preserve_first_n === 0;
    this.window = new ConversationWindow({ ...config, preserve_first_n: Math.max(config.preserve_first_n, 1) });
    validateMessages(initial);
    this.state = [...initial];
  }

  /** The conversation as it stands (the state a failed trim was given, say). */
  get messages(): readonly Message[] {
    return this.state;
  }

  /** Appends the iteration's user prompt. */
  startIteration(prompt: Message): void {
    this.events = [];
    if (this.iterations === 0 && this.raised && this.config.max_messages > 0) {
      this.events.push({
        code: PRESERVE_FIRST_RAISED,
        message: 'preserve_first_n 0 raised to 1: the provider loop never evicts the first message',
      });
    }
    this.iterations++;
    this.append(prompt);
  }

  /** Trims the conversation and returns what the next model call is sent (LOOP-1). */
  async request(): Promise<Message[]> {
    await this.trim();
    return [...this.state];
  }

  /** Appends the model's response and the tool results that answer it. */
  append(...messages: Message[]): void {
    this.state.push(...messages);
  }

  /** Trims the conversation once more and hands it on (LOOP-3), with the iteration's metrics and events (LOOP-4, LOOP-5). */
  async finishIteration(): Promise<IterationResult> {
    await this.trim();
    const state = [...this.state];
    const count = state.length;
    const tokens = estimateTokens(state);
    const events = this.events;
    events.push({ code: CONVERSATION_METRICS, message: `Conversation: ${count} messages (~${tokens} tokens)` });
    const max = this.config.max_messages;
    if (max > 0 && 100 * count > 80 * max) {
      events.push({ code: CONVERSATION_APPROACHING_LIMIT, message: `Conversation approaching limit (${count}/${max} messages)` });
    }
    this.events = [];
    return { state, metrics: { messageCount: count, estimatedTokens: tokens }, events };
  }

  private async trim(): Promise<void> {
    const { summarizer, timeoutMs } = this.options;
    let result: TrimResult;
    if (summarizer === undefined) {
      result = this.window.trim(this.state);
    } else {
      const timeout = typeof timeoutMs === 'function' ? timeoutMs() : timeoutMs;
      result = await this.window.trimAndSummarize(this.state, summarizer, timeout === undefined ? {} : { timeoutMs: timeout });
    }
    this.state = result.trimmed;
    const m = result.metrics;
    // LOOP-4: a trim that evicted messages reports them; every trim then
    // passes its warnings on, even one that evicted nothing
    // (preserve_exceeds_max when head and tail alone hold more than the cap).
    if (m.evictedMessages > 0) {
      this.events.push({
        code: CONVERSATION_TRIMMED,
        message: `Trimmed conversation: ${m.evictedMessages} messages removed, ${m.preservedMessages} kept (~${m.estimatedTokens} tokens)`,
      });
    }
    this.events.push(...result.warnings);
  }
}

/** A scripted run of the loop: what `loop.run` simulates. */
export interface ScriptedRun {
  initial: readonly unknown[];
  iterations: ReadonlyArray<{ prompt: unknown; turns: ReadonlyArray<{ response: unknown; results: readonly unknown[] }> }>;
}

/**
 * Checks every message of a scripted run (MSG-1, CLS-2) and returns where
 * each one is in the run (`iterations[0].turns[1].results[0]`), to name the
 * place of a broken tool structure found later. Throws InvalidMessageError
 * naming the place of the first invalid message.
 */
export function placeRun(run: ScriptedRun): Map<unknown, string> {
  const places = new Map<unknown, string>();
  const add = (m: unknown, place: string): void => {
    try {
      validateMessages([m]);
    } catch (e) {
      if (e instanceof InvalidMessageError) throw new InvalidMessageError(e.message.replace(/^messages\[0\]/, place));
      throw e;
    }
    places.set(m, place);
  };
  run.initial.forEach((m, i) => add(m, `initial[${i}]`));
  run.iterations.forEach((it, i) => {
    add(it.prompt, `iterations[${i}].prompt`);
    it.turns.forEach((turn, j) => {
      add(turn.response, `iterations[${i}].turns[${j}].response`);
      turn.results.forEach((r, k) => add(r, `iterations[${i}].turns[${j}].results[${k}]`));
    });
  });
  return places;
}
