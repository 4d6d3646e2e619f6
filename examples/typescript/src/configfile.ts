/**
 * The conversation settings of an agent's execution config file (spec/SPEC.md
 * §8b, capability `config`): the shorthand `execution.max_conversation_messages`
 * and the block `execution.conversation`, resolved to one effective
 * configuration (CONF-1 – CONF-7).
 */

import { type ConfigFormat, type ConfigNode, ConfigFileError, type MappingNode, describe, memberPath, readDocument } from './document';
import { ConversationWindow, DEFAULT_CONFIG, type EffectiveConfig, type Warning } from './window';

export { ConfigFileError, type ConfigFormat } from './document';

export const CONFIG_FORMATS: readonly ConfigFormat[] = ['yaml', 'json'];

/** Which form set `max_messages` (CONF-1). */
export type MaxMessagesFrom = 'default' | 'shorthand' | 'conversation';

export interface ResolvedConfigFile {
  /** The effective configuration (CFG-1). */
  config: EffectiveConfig;
  max_messages_from: MaxMessagesFrom;
  /** `config_shorthand_overridden`, then the warnings of CFG-6 (CONF-7). */
  warnings: Warning[];
}

export const CONFIG_SHORTHAND_OVERRIDDEN = 'config_shorthand_overridden';

const SHORTHAND = 'execution.max_conversation_messages';
const BLOCK = 'execution.conversation';
const BLOCK_MEMBERS = ['max_messages', 'summarize_on_trim', 'preserve_first_n', 'preserve_last_n'] as const;
type BlockMember = (typeof BLOCK_MEMBERS)[number];

/** CFG-3: a number whose value is an integer from 0 to 2^53 − 1. */
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The value of a member that is a count, or undefined when it is absent or null (CFG-2, CFG-3). */
function count(node: ConfigNode | undefined, path: string): number | undefined {
  if (node === undefined || (node.kind === 'scalar' && node.value === null)) return undefined;
  if (node.kind !== 'scalar' || !isCount(node.value)) {
    throw new ConfigFileError(path, `must be a non-negative integer (at most 2^53 - 1), got ${describe(node)}`);
  }
  return node.value === 0 ? 0 : node.value; // -0 is the count 0
}

/** A mapping, or undefined when absent or null; `what` says what it must hold. */
function mapping(node: ConfigNode | undefined, path: string, what: string): MappingNode | undefined {
  if (node === undefined || (node.kind === 'scalar' && node.value === null)) return undefined;
  if (node.kind !== 'mapping') throw new ConfigFileError(path, `must be a mapping${what}, got ${describe(node)}`);
  return node;
}

/**
 * Resolves a config file to the effective conversation configuration.
 * Throws ConfigFileError (an InvalidConfigError) naming the path of the
 * offending member (CONF-4, CONF-6).
 */
export function resolveConfigFile(format: ConfigFormat, text: string): ResolvedConfigFile {
  const root = readDocument(format, text);
  const config: EffectiveConfig = { ...DEFAULT_CONFIG };
  let from: MaxMessagesFrom = 'default';
  const warnings: Warning[] = [];

  // An empty document, or one that is null, is a file without the settings (CONF-2).
  const top = root?.kind === 'scalar' && root.value === null ? undefined : root;
  if (top !== undefined && top.kind !== 'mapping') {
    throw new ConfigFileError('', `the top level must be a mapping, got ${describe(top)}`);
  }
  const execution = mapping(top?.member('execution', 'execution'), 'execution', '');
  // Only the two settings are read; every other member belongs to the host (CONF-5).
  const shorthand = count(execution?.member('max_conversation_messages', SHORTHAND), SHORTHAND);
  const block = mapping(execution?.member('conversation', BLOCK), BLOCK, ` of ${BLOCK_MEMBERS.join(', ')}`);

  if (shorthand !== undefined) {
    config.max_messages = shorthand;
    from = 'shorthand';
  }
  if (block !== undefined) {
    // CFG-4: every member of the block is one of CFG-1's.
    for (const name of block.names) {
      const path = memberPath(BLOCK, name);
      if (!(BLOCK_MEMBERS as readonly string[]).includes(name)) {
        throw new ConfigFileError(path, `unknown member (known: ${BLOCK_MEMBERS.join(', ')})`);
      }
      const node = block.member(name, path)!;
      if (name === 'summarize_on_trim') {
        if (node.kind === 'scalar' && node.value === null) continue;
        if (node.kind !== 'scalar' || typeof node.value !== 'boolean') {
          throw new ConfigFileError(path, `must be a boolean (true or false), got ${describe(node)}`);
        }
        config.summarize_on_trim = node.value;
        continue;
      }
      const value = count(node, path);
      if (value === undefined) continue;
      // CONF-3: every member the block sets wins.
      config[name as Exclude<BlockMember, 'summarize_on_trim'>] = value;
      if (name === 'max_messages') {
        from = 'conversation';
        if (shorthand !== undefined && shorthand !== value) {
          warnings.push({
            code: CONFIG_SHORTHAND_OVERRIDDEN,
            message: `${BLOCK}.max_messages (${value}) overrides ${SHORTHAND} (${shorthand}); the cap is ${value}`,
          });
        }
      }
    }
  }
  // CONF-7: then the warnings of a window created with this configuration (CFG-6).
  warnings.push(...new ConversationWindow(config).warnings);
  return { config, max_messages_from: from, warnings };
}
