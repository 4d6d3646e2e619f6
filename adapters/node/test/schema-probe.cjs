// Every group of convspec-kit, each handler answering a fixed value of the
// shape the kit expects: what adapters/schema_test.go sends requests to, to
// check what the kit reads and writes against the protocol's JSON Schema
// (D-63). It implements nothing.

const { serve } = require('../convspec-kit.cjs');

const config = { max_messages: 1, summarize_on_trim: false, preserve_first_n: 0, preserve_last_n: 0 };
const metrics = { totalMessages: 0, preservedMessages: 0, evictedMessages: 0, estimatedTokens: 0 };
serve({
  name: 'schema-probe',
  version: '0.0.0',
  window: {
    create: () => ({ window: {}, config }),
    trim: (w, messages) => ({ trimmed: messages, evicted: [], metrics }),
    estimate: () => 0,
    summarize: () => 'summary',
  },
  history: {
    classify: () => ({ classes: [], units: [] }),
    prune: (messages) => ({ messages, removed: [] }),
    build: (messages) => ({ messages, warnings: [] }),
  },
  budget: {
    count: () => ({ tokens: 0, per_message: [] }),
    check: () => ({ tokens: 0, limit: 1, approaching: false, at_limit: false }),
    prune: (messages) => ({ messages, removed: [] }),
    compress: (messages) => messages,
    prepare: (messages) => ({ messages, events: [] }),
  },
  tokens: { encode: () => [] },
  config: { resolve: () => ({ config, max_messages_from: 'default', warnings: [] }) },
  loop: {
    conversation: () => ({
      config,
      startIteration() {},
      request: () => [],
      append() {},
      finishIteration: () => ({ state: [], metrics: { messageCount: 0, estimatedTokens: 0 }, events: [] }),
    }),
  },
  trimmers: [{
    name: 'probe', version: 2, bound: 'tokens', counter: 'native', guarantees: ['subsequence'],
    trim: (messages) => messages,
    nativeCount: () => 0,
  }],
});
