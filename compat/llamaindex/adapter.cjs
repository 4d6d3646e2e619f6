// LlamaIndex's ChatMemoryBuffer (@llamaindex/core 0.6.23) on convspec-kit,
// declared with the second trimmer declaration (SPEC §8d, D-60) from what
// its docs and code say: getMessages() returns "the most recent messages
// that fit in tokenLimit", counted by the library's own counter — cl100k
// (Settings.tokenizer) over the messages' texts joined by spaces, no role
// and no tool calls — which is declared "native" and answered with the
// library's own _tokenCountForMessages, so the bound is checked against it
// and the counter itself is checked (ANY-13). It keeps the newest message
// alone when nothing fits (its loop stops at one message), declared
// fallback "last_message" (ANY-14, D-76), so the bound is claimed modulo
// that rule. It also skips an assistant message at the start of the
// window, which no member states: bound and fits hold whatever it skips.
//
// Each input message is given to the library as a ChatMessage (role, its
// text content, string or text blocks; other content as "") carrying its
// input position, and the output is mapped back by it (MSG-2).

const { serve } = require('../../adapters/node/convspec-kit.cjs');
const { ChatMemoryBuffer, BaseMemory } = require('@llamaindex/core/memory');

// ChatMemoryBuffer reads its default limit from an LLM's context window;
// the limit is always given here, so a stub LLM only satisfies the read.
const llm = { metadata: { contextWindow: 4096 } };

// LlamaIndex's MessageContent is a string or a list of content details:
// text blocks are kept, anything else (a JSON value the library has no
// type for) is left out, as a user converting to its types would.
function toLlama(m, i) {
  let content = '';
  if (typeof m.content === 'string') content = m.content;
  else if (Array.isArray(m.content)) {
    content = m.content.filter((b) => b !== null && typeof b === 'object' && b.type === 'text' && typeof b.text === 'string');
  }
  return { role: m.role, content, options: { position: i } };
}

async function trim(messages, limit) {
  const buffer = new ChatMemoryBuffer({ tokenLimit: limit, llm, chatHistory: messages.map(toLlama) });
  const kept = await buffer.getMessages();
  return kept.map((m) => messages[m.options.position]);
}

function nativeCount(messages) {
  return BaseMemory.prototype._tokenCountForMessages.call(null, messages.map(toLlama));
}

serve({
  name: 'llamaindex-ChatMemoryBuffer',
  version: '@llamaindex/core 0.6.23',
  levels: ['core'],
  formats: ['openai'],
  trimmers: [{
    name: 'ChatMemoryBuffer.getMessages',
    version: 2,
    bound: 'tokens',
    counter: 'native',
    count: { over: 'joined' },
    fallback: 'last_message',
    formats: ['openai'],
    guarantees: ['subsequence', 'bound', 'fits', 'idempotent'],
    trim,
    nativeCount,
  }],
});
