// A toy trimmer on convspec-kit, declared honestly: core level, OpenAI
// messages, capability trimmer with two trimmers (by messages, by chars4
// tokens). It keeps the leading system messages, then whole units from the
// end while they fit; when even the system messages and the last unit do
// not fit, exactly those (ANY-6's floor).

const { serve, countChars4 } = require('../convspec-kit.cjs');

/** The units (UNIT-1) of valid OpenAI messages, as [start, end) ranges. */
function units(messages) {
  const out = [];
  for (let i = 0; i < messages.length; ) {
    let end = i + 1;
    if (messages[i].role === 'assistant' && Array.isArray(messages[i].tool_calls) && messages[i].tool_calls.length > 0) {
      while (end < messages.length && messages[end].role === 'tool') end++;
    }
    out.push([i, end]);
    i = end;
  }
  return out;
}

function keepLast(messages, limit, count) {
  if (count(messages) <= limit) return messages;
  let head = 0;
  while (head < messages.length && ['system', 'developer'].includes(messages[head].role)) head++;
  const system = messages.slice(0, head);
  const us = units(messages.slice(head)).map(([s, e]) => [s + head, e + head]);
  let from = us.length > 0 ? us[us.length - 1][0] : messages.length; // the last unit, always kept
  for (let k = us.length - 2; k >= 0; k--) {
    if (count([...system, ...messages.slice(us[k][0])]) > limit) break;
    from = us[k][0];
  }
  return [...system, ...messages.slice(from)];
}

const guarantees = ['subsequence', 'units', 'system', 'last_unit', 'bound', 'fits', 'idempotent', 'total'];
serve({
  name: 'toy-trimmer',
  version: '0.0.0',
  levels: ['core'],
  formats: ['openai'],
  trimmers: [
    { name: 'last-messages', bound: 'messages', formats: ['openai'], guarantees, trim: (m, limit) => keepLast(m, limit, (l) => l.length) },
    { name: 'last-chars4', bound: 'tokens', counter: 'chars4', formats: ['openai'], guarantees, trim: (m, limit) => keepLast(m, limit, countChars4) },
  ],
});
