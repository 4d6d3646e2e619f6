/**
 * convspec-kit: the convspec wire protocol (spec/protocol.md) around a
 * trimming library. `serve({ name, version, window: { create, trim,
 * estimate }, … })` answers `conform` on stdin/stdout and declares the
 * capabilities of the handlers given.
 */

export {
  type BudgetHandlers,
  type HistoryHandlers,
  type LoopConversation,
  type ServeOptions,
  type SummarizerCallbacks,
  type TrimOutcome,
  type Warning,
  type WindowHandlers,
  capabilities,
  serve,
} from './serve';
export {
  CODES,
  KitError,
  type Kind,
  contextWindowExhausted,
  invalidConfig,
  invalidMessage,
  invalidParams,
  invariantViolation,
  summarizerFailed,
  unknownModel,
  unsupported,
} from './errors';
export { type Message, checkMessages, jsonEqual, partOf, peelSystem, restore } from './messages';
export type { ConfigFile, ScriptedRun } from './params';
export { DEFAULT_MAX_TOKENS, DEFAULT_TIMEOUT_MS } from './summarizer';
export { serialize } from './json';
