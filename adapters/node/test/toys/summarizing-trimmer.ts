// A toy library of the first shape the kit must fit: a class whose
// summarizer, `(text) => Promise<string>`, is given at construction, with an
// async `trim` and names of its own. It borrows its trimming from the
// TypeScript example (this is a test of the kit's fit, not of trimming).

import { ConversationWindow, type Message, estimateTokens, summarize } from '../../../../examples/typescript/src/window';

export type SummarizeText = (text: string) => Promise<string>;

export class SummarizingTrimmer {
  private readonly window: ConversationWindow;

  /** `settings`: max_messages, summarize_on_trim, preserve_first_n, preserve_last_n (throws for a bad one). */
  constructor(settings: unknown, private readonly summarizeText: SummarizeText) {
    this.window = new ConversationWindow(settings);
  }

  get settings(): object {
    return this.window.config;
  }

  get notices(): ReadonlyArray<{ code: string; message: string }> {
    return this.window.warnings;
  }

  /** `summarize: false` trims without calling the summarizer (SUM-8). */
  async trim(messages: readonly Message[], options: { summarize?: boolean } = {}) {
    const r = options.summarize === false ? this.window.trim(messages) : await this.window.trimAndSummarize(messages, (prompt) => this.summarizeText(prompt));
    return { kept: r.trimmed, dropped: r.evicted, summaryMessage: r.summary, stats: r.metrics, notices: r.warnings };
  }

  static estimate(messages: readonly Message[]): number {
    return estimateTokens(messages);
  }

  static summarizeAll(messages: readonly Message[], summarizeText: SummarizeText): Promise<string> {
    return summarize(messages, (prompt) => summarizeText(prompt));
  }
}
