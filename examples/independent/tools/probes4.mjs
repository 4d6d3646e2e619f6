import { writeFileSync } from 'node:fs'
// UNIT-2 on every path of the methods it lists, and MSG-1 on every method.
const P = []
const one = (name, method, params) => P.push({ name, steps: [{ method, params }] })
const orphan = [{ role: 'system', content: 's' }, { role: 'tool', tool_call_id: 'z', content: 'r' }, { role: 'user', content: 'u' }]
const unanswered = [{ role: 'system', content: 's' }, { role: 'user', content: 'u' }, { role: 'assistant', content: null, tool_calls: [{ id: 'a' }] }]
const dup = [{ role: 'user', content: 'u' }, { role: 'assistant', tool_calls: [{ id: 'a' }] }, { role: 'tool', tool_call_id: 'a' }, { role: 'assistant', tool_calls: [{ id: 'a' }] }, { role: 'tool', tool_call_id: 'a' }]
const win = (name, cfg, msgs, summarizer) => P.push({ name, steps: [{ method: 'window.create', params: { config: cfg } }, { method: 'window.trim', params: { window: '$w', messages: msgs, ...(summarizer ? { summarizer } : {}) } }] })
for (const [label, m] of [['orphan', orphan], ['unanswered', unanswered], ['dup', dup]]) {
  win(`trim under cap ${label}`, {}, m)
  win(`trim max 0 ${label}`, { max_messages: 0 }, m)
  win(`trim over cap ${label}`, { max_messages: 1, preserve_last_n: 0 }, m)
  win(`trim summarizing ${label}`, { max_messages: 1, summarize_on_trim: true }, m, { reply: 'S' })
  one(`classify ${label}`, 'history.classify', { messages: m })
  one(`budget.prune under target ${label}`, 'budget.prune', { messages: m, model: 'gpt-4o' })
  one(`budget.prune over target ${label}`, 'budget.prune', { messages: m, model: 'm', limits: { m: 1 } })
  one(`budget.prepare under ${label}`, 'budget.prepare', { messages: m, model: 'gpt-4o', summarizer: { reply: 'S' } })
  one(`budget.prepare approaching ${label}`, 'budget.prepare', { messages: m, model: 'm', limits: { m: 10 }, summarizer: { reply: 'S' } })
  one(`budget.prepare at limit ${label}`, 'budget.prepare', { messages: m, model: 'm', limits: { m: 2 }, summarizer: { reply: 'S' } })
  one(`budget.compress ${label}`, 'budget.compress', { messages: m, summarizer: { reply: 'S' } })
  one(`budget.count ${label}`, 'budget.count', { messages: m })
  one(`budget.check ${label}`, 'budget.check', { messages: m, model: 'gpt-4o' })
  one(`history.prune ${label}`, 'history.prune', { messages: m })
  one(`window.estimate ${label}`, 'window.estimate', { messages: m })
  one(`window.summarize ${label}`, 'window.summarize', { messages: m, summarizer: { reply: 'S' } })
  one(`trimmer ${label}`, 'trimmer.trim', { trimmer: 'recent-messages', messages: m, limit: 100 })
  one(`loop initial ${label} max 0`, 'loop.run', { config: { format: 'yaml', text: 'execution: {max_conversation_messages: 0}' }, initial: m, iterations: [{ prompt: { role: 'user', content: 'p' }, turns: [{ response: { role: 'assistant', content: 'a' }, results: [] }] }] })
  one(`loop initial ${label} max 30`, 'loop.run', { config: { format: 'yaml', text: 'execution: {max_conversation_messages: 30}' }, initial: m, iterations: [{ prompt: { role: 'user', content: 'p' }, turns: [{ response: { role: 'assistant', content: 'a' }, results: [] }] }] })
  one(`loop initial ${label} no iterations`, 'loop.run', { config: { format: 'yaml', text: 'execution: {max_conversation_messages: 30}' }, initial: m, iterations: [] })
}
const bad = [{ role: 'user', content: 'u' }, { content: 'no role' }]
for (const [method, extra] of [['window.estimate', {}], ['window.summarize', { summarizer: { reply: 'S' } }], ['history.classify', {}], ['history.prune', {}], ['history.build', { max_messages: 0 }], ['budget.count', {}], ['budget.check', { model: 'gpt-4o' }], ['budget.prune', { model: 'gpt-4o' }], ['budget.compress', { summarizer: { reply: 'S' } }], ['budget.prepare', { model: 'gpt-4o', summarizer: { reply: 'S' } }], ['trimmer.trim', { trimmer: 'recent-messages', limit: 5 }]]) one(`invalid message ${method}`, method, { messages: bad, ...extra })
win('invalid message trim under cap', {}, bad)
one('loop invalid initial no iterations', 'loop.run', { config: { format: 'yaml', text: '' }, initial: bad, iterations: [] })
writeFileSync(process.argv[2], JSON.stringify(P))
