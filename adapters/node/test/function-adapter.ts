// convspec adapter for the toy trim functions (pure, system prompt apart,
// rebuilt messages) on convspec-kit.

import { peelSystem, restore, serve } from '../convspec-kit.cjs';
import * as toy from './toys/trim-function';

serve({
  name: 'toy-trim-function',
  version: '0.0.0',
  window: {
    create(config) {
      const { options, warnings } = toy.checkOptions(config);
      return { window: options, config: options, warnings };
    },
    trim(options, messages) {
      const { system, rest } = peelSystem(messages);
      const r = toy.trimConversation(system, rest, options);
      return { trimmed: restore(r.messages, messages), evicted: restore(r.removed, messages), metrics: r.stats, warnings: r.warnings };
    },
    estimate: toy.estimate,
  },
  history: {
    classify: toy.classify,
    prune(messages) {
      const r = toy.withoutOrphans(messages);
      return { messages: restore(r.messages, messages), removed: r.at };
    },
    build(messages, max) {
      const r = toy.build(messages, max);
      return { messages: restore(r.messages, messages), warnings: r.repairs };
    },
  },
});
