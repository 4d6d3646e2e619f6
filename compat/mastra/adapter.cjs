// Mastra's TokenLimiterProcessor (@mastra/core 1.71.0) on convspec-kit,
// declared with the second trimmer declaration (SPEC §8d, D-60) from its
// docs and code: as an input processor it "filters historical messages to
// fit within context window, prioritizing recent messages", at the provider
// prompt (processLLMRequest, trimMode "best-fit", the default); "a tool call
// and the results it produced are always kept or dropped together"; every
// system message is kept wherever it stands (system "all"); and it throws a
// TripWire rather than send a request with no messages (refuses
// "nothing_fits", answered here as context_window_exhausted). Its counter
// is its own — a tokenx estimate of role and text, tool-call inputs and
// tool results, plus 3.8 per message and 24 per conversation — declared
// "native" and answered by the library's own countPromptMessageTokens, so
// the bound is checked against it and the counter is checked itself
// (ANY-13). The counts are fractional; the adapter answers their ceiling,
// which keeps every comparison with an integer limit as it is.
//
// Each OpenAI message becomes one message of the provider prompt
// (LanguageModelV2): system/developer → system, user → user text, assistant
// → text and tool-call parts (arguments parsed as JSON when they are),
// tool → one tool-result part, any other role → user text (the prompt has
// no other roles). The output is mapped back by object identity (MSG-2).

const { serve, KitError } = require('../../adapters/node/convspec-kit.cjs');
const { TokenLimiterProcessor } = require('@mastra/core/processors');

function text(m) {
  if (typeof m.content === 'string') return m.content;
  if (Array.isArray(m.content)) return m.content.filter((b) => b?.type === 'text' && typeof b.text === 'string').map((b) => b.text).join('');
  return m.content == null ? '' : JSON.stringify(m.content);
}

function input(args) {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

function toPrompt(m) {
  switch (m.role) {
    case 'system':
    case 'developer':
      return { role: 'system', content: text(m) };
    case 'assistant': {
      const parts = text(m) === '' ? [] : [{ type: 'text', text: text(m) }];
      for (const c of Array.isArray(m.tool_calls) ? m.tool_calls : []) {
        parts.push({ type: 'tool-call', toolCallId: String(c.id), toolName: String(c.function?.name ?? ''), input: input(c.function?.arguments) });
      }
      return { role: 'assistant', content: parts };
    }
    case 'tool':
      return { role: 'tool', content: [{ type: 'tool-result', toolCallId: String(m.tool_call_id), toolName: '', output: { type: 'text', value: text(m) } }] };
    default:
      return { role: 'user', content: [{ type: 'text', text: text(m) }] };
  }
}

async function trim(messages, limit) {
  const prompt = messages.map(toPrompt);
  const position = new Map(prompt.map((p, i) => [p, i]));
  let result;
  try {
    result = await new TokenLimiterProcessor({ limit }).processLLMRequest({ prompt });
  } catch (e) {
    if (e?.constructor?.name === 'TripWire') throw new KitError('context_window_exhausted', e.message);
    throw e;
  }
  const kept = result === undefined ? prompt : result.prompt;
  return kept.map((p) => messages[position.get(p)]);
}

const counter = new TokenLimiterProcessor({ limit: 1 });

function nativeCount(messages) {
  let n = TokenLimiterProcessor.TOKENS_PER_CONVERSATION;
  for (const p of messages.map(toPrompt)) n += counter.countPromptMessageTokens(p);
  // The sums are of fractions (3.8 per message), added in another order
  // than the library adds them; 1e-9 absorbs the floating-point noise so
  // that a sum the library finds exactly at the limit stays at it.
  return Math.ceil(n - 1e-9);
}

serve({
  name: 'mastra-TokenLimiterProcessor',
  version: '@mastra/core 1.71.0',
  levels: ['core'],
  formats: ['openai'],
  trimmers: [{
    name: 'TokenLimiterProcessor.processLLMRequest',
    version: 2,
    bound: 'tokens',
    counter: 'native',
    system: 'all',
    refuses: 'nothing_fits',
    formats: ['openai'],
    guarantees: ['subsequence', 'units', 'system', 'bound', 'fits', 'idempotent'],
    trim,
    nativeCount,
  }],
});
