// LangChain's trimMessages (@langchain/core 1.4.0) on convspec-kit, declared
// with the second trimmer declaration (SPEC §8d, D-60) as its own docs
// describe the options a chat-model user writes: strategy "last",
// includeSystem true ("whether to keep the SystemMessage if there is one at
// index 0"), startOn "human" ("the first message type to keep"; applied
// whether or not anything is trimmed), allowPartial false. The docs promise
// neither the latest prompt nor the last unit, so neither is claimed.
//
// Messages are converted from the OpenAI format (system/developer →
// SystemMessage, user → HumanMessage, assistant → AIMessage with its
// tool_calls, tool → ToolMessage, any other role → ChatMessage), each with
// its input position as id, and the output is mapped back by that id, so
// messages come back exactly as sent (MSG-2).

const { serve, countChars4 } = require('../../adapters/node/convspec-kit.cjs');
const { AIMessage, ChatMessage, HumanMessage, SystemMessage, ToolMessage, trimMessages } = require('@langchain/core/messages');

function parseArgs(text) {
  try {
    const v = JSON.parse(text);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

function toLangChain(m, i) {
  const id = String(i);
  const content = typeof m.content === 'string' || Array.isArray(m.content) ? m.content : m.content == null ? '' : JSON.stringify(m.content);
  switch (m.role) {
    case 'system':
    case 'developer':
      return new SystemMessage({ id, content });
    case 'user':
      return new HumanMessage({ id, content });
    case 'assistant': {
      const toolCalls = Array.isArray(m.tool_calls)
        ? m.tool_calls.map((c) => ({ id: c.id, name: c.function?.name ?? '', args: parseArgs(c.function?.arguments), type: 'tool_call' }))
        : [];
      return new AIMessage({ id, content, tool_calls: toolCalls });
    }
    case 'tool':
      return new ToolMessage({ id, content, tool_call_id: m.tool_call_id });
    default:
      return new ChatMessage({ id, content, role: m.role });
  }
}

/** trimMessages with the user's options, its tokenCounter counting the original messages. */
function trimmer(count) {
  return async (messages, limit) => {
    const original = (lc) => messages[Number(lc.id)];
    const kept = await trimMessages(messages.map(toLangChain), {
      maxTokens: limit,
      tokenCounter: (msgs) => count(msgs.map(original)),
      strategy: 'last',
      includeSystem: true,
      startOn: 'human',
      allowPartial: false,
    });
    // [undefined] (includeSystem with nothing kept) is passed on as null,
    // for the suite to judge.
    return kept.map((lc) => (lc === undefined ? null : original(lc)));
  };
}

const declared = {
  version: 2,
  formats: ['openai'],
  system: 'first',
  start: 'user',
  guarantees: ['subsequence', 'units', 'system', 'bound', 'fits', 'idempotent'],
};

serve({
  name: 'langchain-trimMessages',
  version: '@langchain/core 1.4.0',
  levels: ['core'],
  formats: ['openai'],
  trimmers: [
    { name: 'trimMessages/messages', bound: 'messages', ...declared, trim: trimmer((m) => m.length) },
    { name: 'trimMessages/chars4', bound: 'tokens', counter: 'chars4', ...declared, trim: trimmer(countChars4) },
  ],
});
