/**
 * convspec in TypeScript: the library behind the adapter, as a package.
 *
 * - window.ts: ConversationWindow (sliding window, summaries), estimateTokens
 * - messages.ts: the message model, classes and tool-call units
 * - summarize.ts: the summary prompt and summarize()
 * - history.ts: classifyConversation, pruneOrphanedUserMessages, buildLLMMessages
 * - budget.ts: cl100k_base counts, limits, pruneMessages, summarizeAndCompress, prepareRequest
 * - configfile.ts: resolveConfigFile, the conversation settings of a YAML or JSON config file
 *   (read by document.ts)
 * - loop.ts: ProviderConversation, a provider loop's conversation trimmed before every model call
 */

export * from './window';
export * from './history';
export * from './budget';
export * from './configfile';
export * from './loop';
