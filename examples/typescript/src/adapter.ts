// The convspec protocol adapter (spec/protocol.md) for this library, on
// convspec-kit (adapters/node), which owns the wire: framing, JSON-RPC,
// handles, params, the scripted summarizer, message identity and errors.
//
//   node dist/adapter.js

import { serve } from 'convspec-kit';
import { contextLimit, countTokens, encode, isApproachingLimit, isAtLimit, prepareRequest, pruneMessages, summarizeAndCompress } from './budget';
import { resolveConfigFile } from './configfile';
import { buildLLMMessages, classifyConversation, pruneOrphanedUserMessages } from './history';
import { ProviderConversation } from './loop';
import { summarize } from './summarize';
import { ConversationWindow, estimateTokens } from './window';

serve({
  name: 'convspec-example-typescript',
  version: '0.1.0',
  window: {
    create(config) {
      const window = new ConversationWindow(config);
      return { window, config: window.config, warnings: window.warnings };
    },
    trim: (window, messages, s) => (s ? window.trimAndSummarize(messages, s.call, { timeoutMs: s.timeoutMs }) : window.trim(messages)),
    estimate: estimateTokens,
    summarize: (messages, s) => summarize(messages, s.call, s.timeoutMs),
  },
  history: {
    classify: classifyConversation,
    prune: pruneOrphanedUserMessages,
    build: buildLLMMessages,
  },
  tokens: { encode },
  budget: {
    count(messages) {
      const { tokens, perMessage } = countTokens(messages);
      return { tokens, per_message: perMessage };
    },
    check(messages, model, limits) {
      const limit = contextLimit(model, limits);
      const { tokens } = countTokens(messages);
      return { tokens, limit, approaching: isApproachingLimit(tokens, limit), at_limit: isAtLimit(tokens, limit) };
    },
    prune: (messages, model, limits, ratio) => pruneMessages(messages, contextLimit(model, limits), Math.round(ratio * 100)),
    compress: (messages, s) => summarizeAndCompress(messages, s.messages, { timeoutMs: s.timeoutMs }),
    prepare: (messages, model, limits, s) => prepareRequest(messages, model, s.messages, { limits, timeoutMs: s.timeoutMs }),
  },
  config: { resolve: resolveConfigFile },
  loop: {
    conversation(file, initial, s) {
      const { config } = resolveConfigFile(file.format, file.text);
      return new ProviderConversation(config, initial, s ? { summarizer: s.call, timeoutMs: () => s.timeoutMs } : {});
    },
  },
});
