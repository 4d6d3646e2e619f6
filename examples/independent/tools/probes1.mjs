import { writeFileSync } from 'node:fs'
const P = []
const one = (name, method, params) => P.push({ name, steps: [{ method, params }] })
const raw = (name, method, paramsText) => P.push({ name, steps: [{ method, paramsText }] })
const S = (reply) => ({ reply })
const call = (id) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }] })
const res = (id) => ({ role: 'tool', tool_call_id: id, content: 'r' })
const seq = (n) => Array.from({ length: n }, (_, i) => ({ role: i === 0 ? 'system' : i % 2 ? 'user' : 'assistant', content: `m${i + 1}` }))

// R1 CLS-2 scope
one('R1 user with tool_calls 5', 'history.classify', { messages: [{ role: 'user', content: 'x', tool_calls: 5 }] })
one('R1 user with tool_use block without id', 'history.classify', { messages: [{ role: 'user', content: [{ type: 'tool_use' }] }] })
one('R1 assistant with tool_result block without id', 'history.classify', { messages: [{ role: 'assistant', content: [{ type: 'tool_result' }] }] })
one('R1 system with tool_call_id 5', 'history.classify', { messages: [{ role: 'system', tool_call_id: 5 }] })
one('R1 tool_calls [] plus tool_use', 'history.classify', { messages: [{ role: 'assistant', tool_calls: [], content: [{ type: 'tool_use', id: 'a' }] }, { role: 'tool', tool_call_id: 'a' }] })
one('R1 tool_calls elements non-object', 'history.classify', { messages: [{ role: 'assistant', tool_calls: [1] }] })
// R3 -0
raw('R3 -0 count', 'window.create', '{"config":{"max_messages":-0}}')
raw('R3 -0.0 count', 'window.create', '{"config":{"max_messages":-0.0}}')
raw('count 1e0', 'window.create', '{"config":{"max_messages":1e0, "preserve_last_n": 20.000}}')
raw('count 2^53-1', 'window.create', '{"config":{"max_messages":9007199254740991}}')
raw('count 9007199254740991.0000000001', 'window.create', '{"config":{"max_messages":9007199254740991.0000000001}}')
raw('count 1E400', 'window.create', '{"config":{"max_messages":1E400}}')
raw('count 0e5', 'window.create', '{"config":{"max_messages":0e5}}')
raw('count 1e-400', 'window.create', '{"config":{"max_messages":1e-400}}')
// R4 scripts
one('R4 reply null error x', 'window.summarize', { messages: seq(2), summarizer: { reply: null, error: 'x' } })
one('R4 reply null alone', 'window.summarize', { messages: seq(2), summarizer: { reply: null } })
one('R4 delay null', 'window.summarize', { messages: seq(2), summarizer: { reply: 'ok', delay_ms: null } })
one('R4 timeout null', 'window.summarize', { messages: seq(2), summarizer: { reply: 'ok', timeout_ms: null } })
one('R4 reply number', 'window.summarize', { messages: seq(2), summarizer: { reply: 5 } })
one('R4 both', 'window.summarize', { messages: seq(2), summarizer: { reply: 'a', error: 'b' } })
one('R4 extra member', 'window.summarize', { messages: seq(2), summarizer: { reply: 'a', foo: 1 } })
raw('R4 delay 1.0', 'window.summarize', '{"messages":[{"role":"user","content":"x"}],"summarizer":{"reply":"a","delay_ms":1.0}}')
raw('R4 delay 2.5', 'window.summarize', '{"messages":[{"role":"user","content":"x"}],"summarizer":{"reply":"a","delay_ms":2.5}}')
raw('R4 delay -1', 'window.summarize', '{"messages":[{"role":"user","content":"x"}],"summarizer":{"reply":"a","delay_ms":-1}}')
// R5 tie
one('R5 delay == timeout', 'window.summarize', { messages: seq(2), summarizer: { reply: 'ok', delay_ms: 60, timeout_ms: 60 } })
one('R5 delay > timeout', 'window.summarize', { messages: seq(2), summarizer: { reply: 'ok', delay_ms: 80, timeout_ms: 60 } })
// R6
one('R6 summarize without summarizer', 'window.summarize', { messages: seq(2) })
one('R6 prepare without summarizer under 80%', 'budget.prepare', { messages: seq(2), model: 'gpt-4o' })
one('R6 compress without summarizer', 'budget.compress', { messages: seq(2) })
P.push({ name: 'R6 trim summarizer null', steps: [{ method: 'window.create', params: { config: { max_messages: 3, summarize_on_trim: true } } }, { method: 'window.trim', params: { window: '$w', messages: seq(5), summarizer: null } }] })
P.push({ name: 'R6 trim bad summarizer when off', steps: [{ method: 'window.create', params: { config: { max_messages: 3 } } }, { method: 'window.trim', params: { window: '$w', messages: seq(2), summarizer: { reply: 'a', error: 'b' } } }] })
// R7 rendering
one('R7 odd blocks', 'window.summarize', {
  messages: [
    { role: 'user', content: [{ type: 'text', text: 5 }, { type: 'text' }, 'bare', 7, null, { type: 'tool_use', id: 'x' }, { type: 'tool_use', id: 'y', name: 5, input: 'in' }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x' }, { type: 'tool_result', tool_use_id: 'y', content: { a: 1 } }, { type: 'tool_result', tool_use_id: 'z', content: ['s', { type: 'text', text: 't' }] }] },
    { role: 'assistant', content: 'c', tool_calls: [{ id: 'q' }, { id: 'r', function: { name: 'n' } }, { id: 's', function: { arguments: { a: 1 } } }, { id: 't', function: { name: 'n', arguments: 'args' } }] },
    { role: 'tool', tool_call_id: 'q' },
    { role: 'tool', tool_call_id: 'r', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
    { role: 'weird', content: true },
    { role: 'user', content: '' },
    { role: 'user', content: {} },
    { role: 'tool', tool_call_id: 'x', content: 'c', tool_calls: [{ id: 'z', function: { name: 'f', arguments: '{}' } }] },
  ],
  summarizer: { reply: 'ok' },
})
one('R7 empty list summarize', 'window.summarize', { messages: [], summarizer: { reply: 'ok' } })
// R8 warnings order: plain WIN-3 path + summary_failed
P.push({ name: 'R8 warnings order', steps: [{ method: 'window.create', params: { config: { max_messages: 3, preserve_first_n: 2, preserve_last_n: 2, summarize_on_trim: true } } }, { method: 'window.trim', params: { window: '$w', messages: seq(20), summarizer: { error: 'boom' } } }] })
P.push({ name: 'R8b warnings order empty', steps: [{ method: 'window.create', params: { config: { max_messages: 3, preserve_first_n: 2, preserve_last_n: 2, summarize_on_trim: true } } }, { method: 'window.trim', params: { window: '$w', messages: seq(20), summarizer: { reply: '  ' } } }] })
// R9: pending >= 10 then a trim that evicts nothing under the summary plan
{
  const m = seq(40)
  P.push({ name: 'R9 pending then nothing evicted', steps: [
    { method: 'window.create', params: { config: { max_messages: 5, preserve_first_n: 1, preserve_last_n: 3, summarize_on_trim: true } } },
    { method: 'window.trim', params: { window: '$w', messages: m.slice(0, 12), summarizer: { error: 'boom' } } },
    { method: 'window.trim', params: { window: '$w', messages: m.slice(0, 5), summarizer: { reply: 'S' } } },
    { method: 'window.trim', params: { window: '$w', messages: m.slice(0, 6), summarizer: { reply: 'S' } } },
  ] })
}
// R10 skip then fallback pending
// R12 duplicate id after dropped structure
one('R12 build dup after dropped', 'history.build', { messages: [{ role: 'system', content: 's' }, call('a'), { role: 'user', content: 'u' }, call('a'), res('a'), { role: 'assistant', content: 'x' }], max_messages: 0 })
one('R12 build dup within kept', 'history.build', { messages: [{ role: 'system', content: 's' }, call('a'), res('a'), { role: 'user', content: 'u' }, call('a'), res('a')], max_messages: 0 })
one('R12 build dup within one call', 'history.build', { messages: [{ role: 'user', content: 'u' }, { role: 'assistant', tool_calls: [{ id: 'a' }, { id: 'a' }] }, res('a'), res('a')], max_messages: 0 })
one('R12 build orphan then answered twice', 'history.build', { messages: [{ role: 'user', content: 'u' }, { role: 'assistant', tool_calls: [{ id: 'a' }, { id: 'b' }] }, res('a'), res('a'), res('x')], max_messages: 0 })
one('R12 build result before call', 'history.build', { messages: [{ role: 'user', content: 'u' }, res('a'), call('a'), res('a')], max_messages: 0 })
// R13 TOK-2
one('R13 counts odd blocks', 'budget.count', { messages: [{ role: 'user', content: [{ type: 'text', text: 5 }, 'bare', { type: 'tool_result', tool_use_id: 'x' }, { type: 'tool_result', tool_use_id: 'y', content: [{ type: 'text', text: 'hi' }, { type: 'image' }] }, { type: 'text' }] }, { role: 'user', content: 5, tool_calls: [] }, { role: 'user', content: true, tool_calls: null }, { role: 'x', content: [] }] })
// R14 budget.prune first and last in one unit
one('R14 prune one unit', 'budget.prune', { messages: [call('a'), res('a')], model: 'm', limits: { m: 1 } })
one('R14 prune first system one', 'budget.prune', { messages: [{ role: 'system', content: 'x'.repeat(50) }], model: 'm', limits: { m: 1 } })
// R15 prepare failing summarizer events
// R16 compress
one('R16 compress developer first', 'budget.compress', { messages: [{ role: 'developer', content: 'd' }, { role: 'user', content: 'u' }, { role: 'assistant', content: 'a' }], summarizer: { reply: ' x ' } })
one('R16 compress empty', 'budget.compress', { messages: [], summarizer: { reply: 'x' } })
one('R16 compress only system', 'budget.compress', { messages: [{ role: 'system', content: 's' }], summarizer: { reply: '' } })
one('R16 compress user first', 'budget.compress', { messages: [{ role: 'user', content: 'u' }], summarizer: { reply: 'x' } })
one('R16 compress second system', 'budget.compress', { messages: [{ role: 'system', content: 's' }, { role: 'system', content: 's2' }, { role: 'user', content: 'u' }], summarizer: { reply: 'x' } })
// R17-R21 config
const cfg = (name, format, text) => one(name, 'config.resolve', { config: { format, text } })
cfg('R17 .inf in host', 'yaml', 'x: .inf\nexecution: {max_conversation_messages: 5}')
cfg('R17 dup in host', 'yaml', 'x: 1\nx: 2\nexecution: {max_conversation_messages: 5}')
cfg('R17 dup in host json', 'json', '{"x":1,"x":2,"execution":{"max_conversation_messages":5}}')
cfg('R17 merge in host', 'yaml', 'b: &b {y: 1}\nx: {<<: *b}\nexecution: {max_conversation_messages: 5}')
cfg('R17 quoted merge key in host', 'yaml', 'x: {"<<": 1}\nexecution: {max_conversation_messages: 5}')
cfg('R18 bool tomato', 'yaml', 'execution: {conversation: {summarize_on_trim: !!bool tomato}}')
cfg('R18 bool tomato host', 'yaml', 'x: !!bool tomato')
cfg('R18 custom tag host', 'yaml', 'x: !foo bar')
cfg('R18 !!str count', 'yaml', 'execution: {max_conversation_messages: !!str 5}')
cfg('R18 !!int quoted', 'yaml', 'execution: {max_conversation_messages: !!int "5"}')
cfg('R18 !!float 4', 'yaml', 'execution: {max_conversation_messages: !!float 4}')
cfg('R18 !!binary', 'yaml', 'x: !!binary aGVsbG8=')
cfg('R18 !!timestamp', 'yaml', 'x: !!timestamp 2001-12-14')
cfg('R18 plain date', 'yaml', 'x: 2001-12-14')
cfg('R18 !!set', 'yaml', 'x: !!set {a, b}')
cfg('R18 ! nonspecific', 'yaml', 'execution: {max_conversation_messages: ! 5}')
cfg('R19 json null', 'json', 'null')
cfg('R19 yaml ~', 'yaml', '~')
cfg('R19 json ws', 'json', ' \n ')
cfg('R19 yaml comment only', 'yaml', '# nothing')
cfg('R19 yaml ---', 'yaml', '---')
cfg('R19 yaml --- ...', 'yaml', '---\n...\n')
cfg('R19 json 5', 'json', '5')
cfg('R19 json string', 'json', '"x"')
cfg('R19 yaml scalar', 'yaml', 'hello')
cfg('R20 seq path', 'yaml', 'execution: {conversation: [1, 2]}')
cfg('R20 int key', 'yaml', '1: x\nexecution: {max_conversation_messages: 5}')
cfg('R20 null key', 'yaml', '~: x\nexecution: {max_conversation_messages: 5}')
cfg('R20 complex key host', 'yaml', '? [a]\n: x\nexecution: {max_conversation_messages: 5}')
cfg('R20 execution key quoted', 'yaml', '"execution": {"max_conversation_messages": 5}')
cfg('R21 deep host', 'json', '{"x":' + '['.repeat(1000) + ']'.repeat(1000) + ',"execution":{}}')
cfg('R21 deep host 999', 'json', '{"x":' + '['.repeat(999) + ']'.repeat(999) + ',"execution":{}}')
cfg('R21 deep yaml', 'yaml', 'x: ' + '['.repeat(1000) + ']'.repeat(1000))
cfg('R21 self alias', 'yaml', 'a: &a [*a]')
cfg('R21 undefined alias', 'yaml', 'a: *b')
cfg('R21 hex 65 digits', 'yaml', 'x: 0x' + '1'.repeat(65))
cfg('R21 hex 64 digits', 'yaml', 'x: 0x' + '1'.repeat(64))
cfg('R21 long decimal', 'yaml', 'x: ' + '1'.repeat(5000))
cfg('R21 long decimal shorthand', 'yaml', 'execution: {max_conversation_messages: ' + '1'.repeat(100) + '}')
cfg('count 30.0 json', 'json', '{"execution":{"max_conversation_messages":30.0}}')
cfg('count 3e1 yaml', 'yaml', 'execution: {max_conversation_messages: 3e1}')
cfg('count +30 yaml', 'yaml', 'execution: {max_conversation_messages: +30}')
cfg('count 0o36 yaml', 'yaml', 'execution: {max_conversation_messages: 0o36}')
cfg('count -0 yaml', 'yaml', 'execution: {max_conversation_messages: -0}')
cfg('block null members', 'yaml', 'execution: {conversation: {max_messages: null, preserve_last_n: ~}}')
cfg('shorthand bool', 'yaml', 'execution: {max_conversation_messages: true}')
cfg('block summarize yes', 'yaml', 'execution: {conversation: {summarize_on_trim: yes}}')
cfg('both same', 'json', '{"execution":{"max_conversation_messages":30,"conversation":{"max_messages":30.0}}}')
cfg('bad shorthand and bad block', 'json', '{"execution":{"max_conversation_messages":-1,"conversation":{"max_messages":-2}}}')
cfg('BOM json', 'json', '\ufeff{"execution":{}}')
cfg('BOM yaml', 'yaml', '\ufeffexecution: {max_conversation_messages: 5}')
one('format YAML upper', 'config.resolve', { config: { format: 'YAML', text: '' } })
one('format missing', 'config.resolve', { config: { text: '' } })
one('text missing', 'config.resolve', { config: { format: 'json' } })
one('config missing', 'config.resolve', {})
// R26 framing
P.push({ name: 'R26 numeric id 1.0', steps: [{ line: '{"jsonrpc":"2.0","id":1.0,"method":"window.estimate","params":{"messages":[]}}' }] })
P.push({ name: 'R26 id string', steps: [{ line: '{"jsonrpc":"2.0","id":"abc","method":"window.estimate","params":{"messages":[]}}' }] })
P.push({ name: 'R26 id true', steps: [{ line: '{"jsonrpc":"2.0","id":true,"method":"window.estimate","params":{"messages":[]}}' }] })
P.push({ name: 'R26 id null', steps: [{ line: '{"jsonrpc":"2.0","id":null,"method":"window.estimate","params":{"messages":[]}}' }] })
P.push({ name: 'R26 id lone surrogate', steps: [{ line: '{"jsonrpc":"2.0","id":"\\ud800","method":"window.estimate","params":{"messages":[]}}' }] })
P.push({ name: 'R26 params null', steps: [{ line: '{"jsonrpc":"2.0","id":3,"method":"window.create","params":null}' }] })
P.push({ name: 'R26 params absent create', steps: [{ line: '{"jsonrpc":"2.0","id":3,"method":"window.create"}' }] })
P.push({ name: 'R26 params array', steps: [{ line: '{"jsonrpc":"2.0","id":3,"method":"window.create","params":[]}' }] })
P.push({ name: 'R26 jsonrpc 1.0', steps: [{ line: '{"jsonrpc":"1.0","id":3,"method":"window.create"}' }] })
P.push({ name: 'R26 no jsonrpc', steps: [{ line: '{"id":3,"method":"window.create"}' }] })
P.push({ name: 'R26 method number', steps: [{ line: '{"jsonrpc":"2.0","id":3,"method":5}' }] })
P.push({ name: 'R26 JSONRPC case', steps: [{ line: '{"jsonrpc":"2.0","JSONRPC":"2.0","id":3,"method":"window.create"}' }] })
P.push({ name: 'R26 Params case', steps: [{ line: '{"jsonrpc":"2.0","id":3,"method":"window.create","Params":{}}' }] })
P.push({ name: 'R26 extra member', steps: [{ line: '{"jsonrpc":"2.0","id":3,"method":"window.create","extra":1}' }] })
P.push({ name: 'R26 string', steps: [{ line: '"hello"' }] })
P.push({ name: 'R26 null line', steps: [{ line: 'null' }] })
P.push({ name: 'R26 trailing', steps: [{ line: '{"jsonrpc":"2.0","id":3,"method":"window.create"} x' }] })
P.push({ name: 'R26 dup id', steps: [{ line: '{"jsonrpc":"2.0","id":3,"id":4,"method":"window.create"}' }] })
// R28
raw('R28 encode lone surrogate', 'tokens.encode', '{"text":"a\\ud800"}')
one('encode missing text', 'tokens.encode', {})
// R29
one('R29 limits null', 'budget.check', { messages: [], model: 'gpt-4o', limits: null })
one('R29 limit 0', 'budget.check', { messages: [], model: 'gpt-4o', limits: { 'gpt-4o': 0 } })
raw('R29 limit 3e3', 'budget.check', '{"messages":[],"model":"x","limits":{"x":3e3}}')
one('R29 target_ratio null', 'budget.prune', { messages: seq(2), model: 'gpt-4o', target_ratio: null })
raw('R29 target_ratio 0.80', 'budget.prune', '{"messages":[{"role":"user","content":"x"}],"model":"gpt-4o","target_ratio":0.80}')
raw('R29 target_ratio 8e-1', 'budget.prune', '{"messages":[{"role":"user","content":"x"}],"model":"gpt-4o","target_ratio":8e-1}')
raw('R29 target_ratio 0.01', 'budget.prune', '{"messages":[{"role":"user","content":"x"}],"model":"gpt-4o","target_ratio":0.01}')
raw('R29 target_ratio 1.00', 'budget.prune', '{"messages":[{"role":"user","content":"x"}],"model":"gpt-4o","target_ratio":1.00}')
one('R29 model missing', 'budget.check', { messages: [] })
one('R29 model number', 'budget.check', { messages: [], model: 5 })
one('R29 limits array', 'budget.check', { messages: [], model: 'gpt-4o', limits: [] })
one('unknown model with bad limit', 'budget.check', { messages: [], model: 'zzz', limits: { zzz: -1 } })
// R30
one('R30 create path', 'window.create', { config: { max_messages: -1 } })
one('R30 create unknown', 'window.create', { config: { foo: 1 } })
one('R30 create array', 'window.create', { config: [1] })
// misc
one('history.build max missing', 'history.build', { messages: [] })
one('history.build max 1e0', 'history.build', { messages: [{ role: 'user', content: 'x' }], max_messages: 1 })
one('trimmer bad limit', 'trimmer.trim', { trimmer: 'window', messages: [], limit: -1 })
one('estimate missing', 'window.estimate', {})
one('estimate 1e400', 'window.estimate', { messages: [{ role: 'user', content: [1e308, 5e-324, 1e21, 123456789012345680000] }] })
raw('estimate raw 1e400', 'window.estimate', '{"messages":[{"role":"user","content":1e400},{"role":"user","content":[1e400,-0,1E2,0.1e1]}]}')
raw('trim echo 1e400', 'history.prune', '{"messages":[{"role":"user","content":1e400, "x": -0}]}')
raw('trim echo dup member', 'history.prune', '{"messages":[{"role":"user","content":"a","content":"b"}]}')
raw('role dup', 'history.prune', '{"messages":[{"role":"user","role":5}]}')
raw('proto member', 'window.estimate', '{"messages":[{"role":"user","__proto__":{"x":1},"content":{"__proto__":"abcd"}}]}')
writeFileSync(process.argv[2], JSON.stringify(P))
