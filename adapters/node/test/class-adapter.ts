// convspec adapter for the toy SummarizingTrimmer (a class, summarizer given
// at construction, async trim) on convspec-kit.

import { serve } from '../convspec-kit.cjs';
import { SummarizingTrimmer } from './toys/summarizing-trimmer';

serve({
  name: 'toy-summarizing-trimmer',
  version: '0.0.0',
  window: {
    create(config, summarizer) {
      const window = new SummarizingTrimmer(config, summarizer.text);
      return { window, config: window.settings, warnings: window.notices };
    },
    async trim(window, messages, summarizer) {
      const r = await window.trim(messages, { summarize: summarizer !== undefined });
      return { trimmed: r.kept, evicted: r.dropped, summary: r.summaryMessage, metrics: r.stats, warnings: r.notices };
    },
    estimate: SummarizingTrimmer.estimate,
    summarize: (messages, summarizer) => SummarizingTrimmer.summarizeAll(messages, summarizer.text),
  },
});
