import { writeFileSync } from 'node:fs'
const P = []
const one = (name, method, params) => P.push({ name, steps: [{ method, params }] })
const seq = (n, off = 0) => Array.from({ length: n }, (_, i) => ({ role: i + off === 0 ? 'system' : (i + off) % 2 ? 'user' : 'assistant', content: `m${i + off + 1}` }))
const b64 = (s) => Buffer.from(s, 'latin1').toString('base64')
// raw bytes
P.push({ name: 'bytes invalid utf8 in content', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":5,"method":"window.estimate","params":{"messages":[{"role":"user","content":"a\xff"}]}}') }] })
P.push({ name: 'bytes surrogate encoded in content', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":5,"method":"window.estimate","params":{"messages":[{"role":"user","content":"a\xed\xa0\x80"}]}}') }] })
P.push({ name: 'bytes invalid utf8 in id', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":"a\xff","method":"window.estimate","params":{"messages":[]}}') }] })
P.push({ name: 'bytes invalid utf8 in unknown member', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":5,"x":"\xff","method":"window.estimate","params":{"messages":[]}}') }] })
P.push({ name: 'bytes invalid utf8 in method', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":5,"method":"window.estimate\xff","params":{"messages":[]}}') }] })
P.push({ name: 'bytes invalid utf8 in config text', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":5,"method":"config.resolve","params":{"config":{"format":"yaml","text":"x: \xff"}}}') }] })
P.push({ name: 'bytes invalid utf8 in key', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":5,"method":"window.estimate","params":{"messages":[{"role":"user","\xff":1}]}}') }] })
P.push({ name: 'bytes BOM line', steps: [{ lineB64: b64('\xef\xbb\xbf{"jsonrpc":"2.0","id":5,"method":"window.estimate","params":{"messages":[]}}') }] })
P.push({ name: 'CRLF line', steps: [{ line: '{"jsonrpc":"2.0","id":5,"method":"window.estimate","params":{"messages":[]}}\r' }] })
P.push({ name: 'overlong utf8', steps: [{ lineB64: b64('{"jsonrpc":"2.0","id":5,"method":"window.estimate","params":{"messages":[{"role":"user","content":"\xc0\xaf"}]}}') }] })
P.push({ name: 'initialize protocol 2', steps: [{ line: '{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocol":2,"suite":"convspec"}}' }] })
P.push({ name: 'initialize protocol 1.0', steps: [{ line: '{"jsonrpc":"2.0","id":5,"method":"initialize","params":{"protocol":1.0,"suite":"convspec"}}' }] })
P.push({ name: 'initialize no params', steps: [{ line: '{"jsonrpc":"2.0","id":5,"method":"initialize"}' }] })
// loop
const cfgY = (t) => ({ format: 'yaml', text: t })
const oc = (id) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }] })
const orr = (id) => ({ role: 'tool', tool_call_id: id, content: 'r' + id })
const it = (p, turns) => ({ prompt: { role: 'user', content: p }, turns })
one('loop zero iterations raised', 'loop.run', { config: cfgY('execution: {conversation: {max_messages: 5, preserve_first_n: 0}}'), initial: [{ role: 'system', content: 's' }], iterations: [] })
one('loop raised max 0', 'loop.run', { config: cfgY('execution: {conversation: {max_messages: 0, preserve_first_n: 0}}'), initial: [{ role: 'system', content: 's' }], iterations: [it('p', [{ response: { role: 'assistant', content: 'a' }, results: [] }])] })
one('loop no turns', 'loop.run', { config: cfgY('execution: {max_conversation_messages: 3}'), initial: [{ role: 'system', content: 's' }], iterations: [it('p1', []), it('p2', []), it('p3', []), it('p4', [])] })
one('loop results absent', 'loop.run', { config: cfgY('execution: {max_conversation_messages: 3}'), initial: [{ role: 'system', content: 's' }], iterations: [{ prompt: { role: 'user', content: 'p' }, turns: [{ response: { role: 'assistant', content: 'a' } }] }] })
one('loop turns absent', 'loop.run', { config: cfgY('execution: {max_conversation_messages: 3}'), initial: [{ role: 'system', content: 's' }], iterations: [{ prompt: { role: 'user', content: 'p' } }] })
one('loop initial absent', 'loop.run', { config: cfgY('execution: {max_conversation_messages: 3}'), iterations: [it('p', [{ response: { role: 'assistant', content: 'a' }, results: [] }])] })
one('loop config warnings', 'loop.run', { config: { format: 'json', text: '{"execution":{"max_conversation_messages":3,"conversation":{"max_messages":4}}}' }, initial: [{ role: 'system', content: 's' }], iterations: [it('p', [{ response: { role: 'assistant', content: 'a' }, results: [] }])] })
one('loop unanswered call', 'loop.run', { config: cfgY('execution: {max_conversation_messages: 30}'), initial: [{ role: 'system', content: 's' }], iterations: [it('p', [{ response: oc('a'), results: [] }, { response: { role: 'assistant', content: 'x' }, results: [] }])] })
one('loop final unanswered call', 'loop.run', { config: cfgY('execution: {max_conversation_messages: 30}'), initial: [{ role: 'system', content: 's' }], iterations: [it('p', [{ response: oc('a'), results: [] }])] })
one('loop invalid message', 'loop.run', { config: cfgY('execution: {max_conversation_messages: 30}'), initial: [{ role: 'system', content: 's' }], iterations: [it('p', [{ response: { content: 'x' }, results: [] }])] })
one('loop bad config and bad message', 'loop.run', { config: cfgY('execution: {max_conversation_messages: -1}'), initial: [{ role: 'system', content: 's' }], iterations: [] })
one('loop summarizers null', 'loop.run', { config: cfgY('execution: {conversation: {max_messages: 4, summarize_on_trim: true}}'), initial: [{ role: 'system', content: 's' }], summarizers: null, iterations: [it('p', [{ response: { role: 'assistant', content: 'a' }, results: [] }])] })
{
  const turns = []
  for (let t = 0; t < 8; t++) turns.push({ response: oc('c' + t), results: [orr('c' + t)] })
  turns.push({ response: { role: 'assistant', content: 'done' }, results: [] })
  one('loop summaries cycle', 'loop.run', { config: cfgY('execution: {conversation: {max_messages: 6, preserve_last_n: 2, summarize_on_trim: true}}'), initial: [{ role: 'system', content: 's' }], summarizers: [{ error: 'e1' }, { reply: '' }, { reply: 'S3' }, { reply: 'S4' }], iterations: [it('p1', turns), it('p2', turns.map((t, i) => ({ response: i < 8 ? oc('d' + i) : t.response, results: i < 8 ? [orr('d' + i)] : [] })))] })
  one('loop win3 every trim', 'loop.run', { config: cfgY('execution: {conversation: {max_messages: 3, preserve_first_n: 2, preserve_last_n: 2}}'), initial: [{ role: 'system', content: 's' }], iterations: [it('p1', turns.slice(0, 3))] })
  one('loop anthropic first=user raised', 'loop.run', { config: cfgY('execution: {conversation: {max_messages: 4, preserve_first_n: 0, preserve_last_n: 1}}'), initial: [], iterations: [it('p1', [{ response: { role: 'assistant', content: 'a1' }, results: [] }]), it('p2', [{ response: { role: 'assistant', content: 'a2' }, results: [] }]), it('p3', [{ response: { role: 'assistant', content: 'a3' }, results: [] }])] })
}
// summarize window edge
P.push({ name: 'sum max 1', steps: [{ method: 'window.create', params: { config: { max_messages: 1, preserve_first_n: 0, preserve_last_n: 0, summarize_on_trim: true } } }, { method: 'window.trim', params: { window: '$w', messages: seq(15), summarizer: { reply: 'S' } } }] })
P.push({ name: 'sum max 2 head1', steps: [{ method: 'window.create', params: { config: { max_messages: 2, preserve_first_n: 1, preserve_last_n: 0, summarize_on_trim: true } } }, { method: 'window.trim', params: { window: '$w', messages: seq(15), summarizer: { reply: 'S' } } }] })
P.push({ name: 'sum fallback plain not win3', steps: [{ method: 'window.create', params: { config: { max_messages: 5, preserve_first_n: 2, preserve_last_n: 2, summarize_on_trim: true } } }, { method: 'window.trim', params: { window: '$w', messages: seq(16), summarizer: { error: 'x' } } }] })
P.push({ name: 'sum skipped then pending', steps: [
  { method: 'window.create', params: { config: { max_messages: 4, preserve_first_n: 1, preserve_last_n: 2, summarize_on_trim: true } } },
  { method: 'window.trim', params: { window: '$w', messages: [{ role: 'system', content: 's' }, ...Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: ' ' })), { role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }], summarizer: { reply: 'S' } } },
  { method: 'window.trim', params: { window: '$w', messages: seq(30), summarizer: { reply: 'S' } } },
] })
P.push({ name: 'sum summary evicted covered and text', steps: [
  { method: 'window.create', params: { config: { max_messages: 3, preserve_first_n: 1, preserve_last_n: 1, summarize_on_trim: true } } },
  { method: 'window.trim', params: { window: '$w', messages: seq(14), summarizer: { reply: 'S1' } } },
  { method: 'window.trim', params: { window: '$w', messages: [{ role: 'system', content: 'm1' }, { role: 'assistant', content: '[Conversation Summary]\nS1' }, ...seq(11, 13)], summarizer: { reply: 'S2' } } },
] })
P.push({ name: 'sum on with no summarizer then with', steps: [
  { method: 'window.create', params: { config: { max_messages: 6, preserve_first_n: 1, preserve_last_n: 2, summarize_on_trim: true } } },
  { method: 'window.trim', params: { window: '$w', messages: seq(16) } },
  { method: 'window.trim', params: { window: '$w', messages: seq(9), summarizer: { reply: 'S' } } },
] })
P.push({ name: 'sum under cap with pending', steps: [
  { method: 'window.create', params: { config: { max_messages: 6, preserve_first_n: 1, preserve_last_n: 2, summarize_on_trim: true } } },
  { method: 'window.trim', params: { window: '$w', messages: seq(12), summarizer: { error: 'x' } } },
  { method: 'window.trim', params: { window: '$w', messages: seq(5), summarizer: { reply: 'S' } } },
  { method: 'window.trim', params: { window: '$w', messages: seq(7), summarizer: { reply: 'S' } } },
] })
P.push({ name: 'sum reply white', steps: [
  { method: 'window.create', params: { config: { max_messages: 3, summarize_on_trim: true, preserve_last_n: 1 } } },
  { method: 'window.trim', params: { window: '$w', messages: seq(14), summarizer: { reply: '\u00a0\ufeff x \u2028' } } },
] })
P.push({ name: 'sum tool result text only', steps: [
  { method: 'window.create', params: { config: { max_messages: 3, summarize_on_trim: true, preserve_last_n: 1 } } },
  { method: 'window.trim', params: { window: '$w', messages: [{ role: 'system', content: 's' }, ...Array.from({ length: 6 }, (_, i) => [{ role: 'assistant', content: null, tool_calls: [{ id: 'c' + i, function: { name: 'f', arguments: '{"big":"text"}' } }] }, { role: 'tool', tool_call_id: 'c' + i, content: 'lots of text' }]).flat(), { role: 'user', content: [{ type: 'image' }] }, { role: 'user', content: 'q' }], summarizer: { reply: 'S' } } },
] })
P.push({ name: 'sum other role text counts', steps: [
  { method: 'window.create', params: { config: { max_messages: 3, summarize_on_trim: true, preserve_last_n: 1 } } },
  { method: 'window.trim', params: { window: '$w', messages: [{ role: 'system', content: 's' }, ...Array.from({ length: 11 }, () => ({ role: 'function', content: 'txt' })), { role: 'user', content: 'q' }], summarizer: { reply: 'S' } } },
] })
P.push({ name: 'sum object content only', steps: [
  { method: 'window.create', params: { config: { max_messages: 3, summarize_on_trim: true, preserve_last_n: 1 } } },
  { method: 'window.trim', params: { window: '$w', messages: [{ role: 'system', content: 's' }, ...Array.from({ length: 11 }, () => ({ role: 'user', content: { text: 'txt' } })), { role: 'user', content: 'q' }], summarizer: { reply: 'S' } } },
] })
// budget edges
const L = { model: 'm', limits: { m: 100 } }
const T = (role, n) => ({ role, content: ' the'.repeat(n - 1) })
one('prepare fail fallback prunes', 'budget.prepare', { messages: [T('system', 10), T('user', 40), T('assistant', 26), T('user', 20)], ...L, summarizer: { error: 'q' } })
one('prepare no system', 'budget.prepare', { messages: [T('user', 40), T('assistant', 36), T('user', 20)], ...L, summarizer: { reply: 'S' } })
one('prepare compress to still over 80', 'budget.prepare', { messages: [T('system', 10), T('user', 20), T('assistant', 26), T('user', 70)], ...L, summarizer: { reply: 'S' } })
one('prepare timeout summarizer', 'budget.prepare', { messages: [T('system', 10), T('user', 40), T('assistant', 26), T('user', 20)], ...L, summarizer: { reply: 'S', delay_ms: 300, timeout_ms: 50 } })
one('prepare empty', 'budget.prepare', { messages: [], ...L, summarizer: { reply: 'S' } })
one('compress timeout', 'budget.compress', { messages: seq(3), summarizer: { reply: 'S', delay_ms: 300, timeout_ms: 50 } })
one('prune target 1 at limit', 'budget.prune', { messages: [T('system', 50), T('user', 50)], ...L, target_ratio: 1 })
one('prune first unit is a call', 'budget.prune', { messages: [oc('a'), orr('a'), T('user', 50), T('assistant', 50), T('user', 50)], ...L })
one('prune single message', 'budget.prune', { messages: [T('user', 500)], ...L })
one('check empty', 'budget.check', { messages: [], ...L })
one('count role only', 'budget.count', { messages: [{ role: 'a b c d' }, { role: '<|endoftext|>' }] })
// trimmers: ref names
one('trimmer window 0', 'trimmer.trim', { trimmer: 'recent-messages', messages: seq(5), limit: 0 })
// history
one('build all system', 'history.build', { messages: [{ role: 'system', content: 'a' }, { role: 'developer', content: 'b' }], max_messages: 1 })
one('build system after prune lead', 'history.build', { messages: [{ role: 'user', content: 'a' }, { role: 'system', content: 'b' }, { role: 'user', content: 'c' }, { role: 'assistant', content: 'd' }], max_messages: 1 })
one('build no user prompt fits', 'history.build', { messages: [{ role: 'system', content: 'a' }, { role: 'user', content: 'u' }, { role: 'assistant', content: 'x' }, { role: 'assistant', content: 'y' }, { role: 'assistant', content: 'z' }], max_messages: 2 })
one('build other roles', 'history.build', { messages: [{ role: 'x', content: 'a' }, { role: 'user', content: 'u' }, { role: 'y', content: 'x' }, { role: 'user', content: 'v' }], max_messages: 1 })
one('prune other roles', 'history.prune', { messages: [{ role: 'user', content: 'a' }, { role: 'x', content: 'b' }, { role: 'user', content: 'c' }, { role: 'tool', tool_call_id: 'z' }, { role: 'user', content: 'd' }] })
one('classify empty', 'history.classify', { messages: [] })
one('classify tool_calls null', 'history.classify', { messages: [{ role: 'assistant', tool_calls: null, content: [{ type: 'tool_use', id: 'q' }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'q' }, { type: 'tool_result', tool_use_id: 'q' }] }] })
one('classify result block in tool msg', 'history.classify', { messages: [{ role: 'assistant', tool_calls: [{ id: 'a' }, { id: 'b' }] }, { role: 'tool', tool_call_id: 'a', content: [{ type: 'tool_result', tool_use_id: 'b' }] }, { role: 'tool', tool_call_id: 'b' }] })
writeFileSync(process.argv[2], JSON.stringify(P))
