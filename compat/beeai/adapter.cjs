// BeeAI Framework's SlidingMemory (beeai-framework 0.1.30) on convspec-kit,
// declared with the second trimmer declaration (SPEC §8d, D-60) from its
// docs: "keeps last k messages in the memory" — a window of `size`
// messages, the oldest removed as each new message is added (the default
// removalSelector, messages[0]). The docs promise nothing about the system
// prompt or tool calls (they show a custom removalSelector for that), so
// neither is claimed; the size is a number of messages, at least 1: size 0
// is outside the domain (limit_min 1). A conversation is trimmed by adding
// its messages in order to a fresh memory and reading what it holds.
//
// Each message becomes Message.of({role, text}) (developer as system, text
// from string content or text blocks), a tool result a ToolMessage of one
// tool-result part, each carrying its input position in meta,
// and the output is mapped back by it (MSG-2). beeai-framework requires zod
// without declaring it, so package.json adds it.

const { serve } = require('../../adapters/node/convspec-kit.cjs');
const { Message, ToolMessage } = require('beeai-framework/backend/message');
const { SlidingMemory } = require('beeai-framework/memory/slidingMemory');

function text(m) {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('');
  return '';
}

// A tool result is a ToolMessage of one tool-result part; any other
// message is Message.of its role and text.
function toBeeAI(m, i) {
  const meta = { position: i };
  if (m.role === 'tool') {
    return new ToolMessage({ type: 'tool-result', toolCallId: String(m.tool_call_id), toolName: '', output: { type: 'text', value: text(m) } }, meta);
  }
  return Message.of({ role: m.role === 'developer' ? 'system' : m.role, text: text(m), meta });
}

async function trim(messages, limit) {
  const memory = new SlidingMemory({ size: limit });
  for (const [i, m] of messages.entries()) await memory.add(toBeeAI(m, i));
  return memory.messages.map((m) => messages[m.meta.position]);
}

serve({
  name: 'beeai-SlidingMemory',
  version: 'beeai-framework 0.1.30',
  levels: ['core'],
  formats: ['openai'],
  trimmers: [{
    name: 'SlidingMemory',
    version: 2,
    bound: 'messages',
    limit_min: 1,
    formats: ['openai'],
    guarantees: ['subsequence', 'bound', 'fits', 'idempotent'],
    trim,
  }],
});
