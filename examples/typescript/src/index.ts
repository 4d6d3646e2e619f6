/**
 * convspec in TypeScript: the library behind the adapter, as a package.
 *
 * - window.ts: ConversationWindow (sliding window, summaries), estimateTokens
 * - messages.ts: the message model, classes and tool-call units
 * - summarize.ts: the summary prompt and summarize()
 * - history.ts: classifyConversation, pruneOrphanedUserMessages, buildLLMMessages
 * - budget.ts: cl100k_base counts, limits, pruneMessages, summarizeAndCompress, prepareRequest
 */

export * from './window';
export * from './history';
export * from './budget';
