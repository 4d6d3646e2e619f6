// Execution config files (CONF-1 – CONF-7): the shorthand
// execution.max_conversation_messages and the block execution.conversation,
// in YAML (1.2 core schema) or JSON.
import { parseAllDocuments, isMap, isSeq, isScalar, isAlias } from 'yaml'
import { Worker } from 'node:worker_threads'
import { invalidConfig, invalidParams, RpcError } from './errors.mjs'
import { parse as parseJson, JsonSyntaxError, NUMRAW } from './jsonparse.mjs'
import { isObject } from './messages.mjs'
import { readConfig, readCountMember, effective, creationWarnings } from './window.mjs'

const MAX_DEPTH = 1000
const MAX_EXPANDED = 16 * 1024 * 1024
const MAX_RADIX_DIGITS = 64

const join = (prefix, key) => (typeof key === 'number' ? `${prefix}[${key}]` : prefix === '' ? key : `${prefix}.${key}`)

function lineOf(text, offset) {
  let line = 1
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++
  return line
}

const YAML_OPTIONS = { version: '1.2', schema: 'core', uniqueKeys: false, merge: false, intAsBigInt: false, keepSourceTokens: true, strict: true, prettyErrors: false }

// readYaml reads one YAML document into the values the JSON reader builds
// (objects without prototype, number members' text in NUMRAW), refusing what
// CONF-6 refuses.
function readYaml(text) {
  let docs
  try {
    docs = parseAllDocuments(text, YAML_OPTIONS)
  } catch (e) {
    if (e instanceof RangeError) throw new TooDeep()
    throw invalidConfig('', `the YAML could not be read: ${e.message}`)
  }
  if (!Array.isArray(docs)) docs = [] // an empty stream
  if (docs.length > 1) throw invalidConfig('', `a config file is one YAML document, found ${docs.length}`)
  if (docs.length === 0) return { root: null, foreign: new Map() }
  const doc = docs[0]
  // Unresolved tags are judged node by node (scalar, below).
  const problems = [...doc.errors, ...doc.warnings.filter((w) => w.code !== 'TAG_RESOLVE_FAILED')]
  if (problems.some((p) => /Maximum call stack size exceeded/.test(p.message))) throw new TooDeep()
  if (problems.length) throw invalidConfig('', `the YAML is not valid: ${problems[0].message.split('\n')[0]}`)
  let size = 0
  // size counts the bytes of the document's compact JSON as it is emitted,
  // aliases expanded: the limit is "16 MiB of JSON" (Limits), and the path
  // names the node being written when the count passes it.
  const grow = (n, path) => {
    size += n
    if (size > MAX_EXPANDED) throw invalidConfig(path, 'the document expands beyond 16 MiB of JSON (aliases included)')
  }
  const active = new Set()
  const foreign = new Map() // paths of nodes with a tag outside the core schema

  const number = (text, path) => {
    const t = text.trim()
    if (/^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(t)) throw invalidConfig(path, `${t} is not a number JSON can hold`)
    const radix = /^0([xo])([0-9a-fA-F]*)$/.exec(t)
    if (radix) {
      if (radix[2].length > MAX_RADIX_DIGITS) throw invalidConfig(path, `an integer of more than ${MAX_RADIX_DIGITS} ${radix[1] === 'x' ? 'hexadecimal' : 'octal'} digits`)
      const big = BigInt(`0${radix[1]}${radix[2]}`)
      return { value: Number(big), raw: big.toString() }
    }
    return { value: Number(t), raw: t }
  }

  // scalar resolves a scalar by the core schema (untagged: as the library
  // resolved it) or by its explicit core tag, checked here: the library
  // refuses some texts the core schema's tags accept (!!float 4).
  const scalar = (node, path) => {
    const v = node.value
    const src = typeof node.source === 'string' ? node.source : String(v)
    const text = typeof v === 'string' && node.type !== 'PLAIN' ? v : src
    const tag = node.tag
    if (tag && tag !== '!') {
      const bad = (what) => invalidConfig(path, `${JSON.stringify(text)} is not ${what}`)
      switch (tag) {
        case 'tag:yaml.org,2002:str': return { value: typeof v === 'string' ? v : text }
        case 'tag:yaml.org,2002:null':
          if (/^(~|null|Null|NULL|)$/.test(text)) return { value: null }
          throw bad('a null of the YAML 1.2 core schema')
        case 'tag:yaml.org,2002:bool':
          if (/^(true|True|TRUE)$/.test(text)) return { value: true }
          if (/^(false|False|FALSE)$/.test(text)) return { value: false }
          throw bad('a boolean of the YAML 1.2 core schema')
        case 'tag:yaml.org,2002:int':
          if (/^[-+]?[0-9]+$|^0o[0-7]+$|^0x[0-9a-fA-F]+$/.test(text)) return number(text, path)
          throw bad('an integer of the YAML 1.2 core schema')
        case 'tag:yaml.org,2002:float':
          if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|Inf|INF)$|^\.(nan|NaN|NAN)$/.test(text)) return number(text, path)
          throw bad('a float of the YAML 1.2 core schema')
        default: // not a core tag: readable only as a host's member (CONF-5)
          foreign.set(path, tag)
          return { value: typeof v === 'string' ? v : text }
      }
    }
    if (typeof v === 'number' || typeof v === 'bigint') return number(src, path)
    if (v === null || v === undefined) return { value: null }
    if (typeof v === 'boolean' || typeof v === 'string') return { value: v }
    throw invalidConfig(path, `a value JSON cannot hold (${typeof v})`)
  }

  const keyOf = (k, path) => {
    if (k === null || k === undefined) return ''
    if (isAlias(k)) k = k.resolve(doc)
    if (!isScalar(k)) throw invalidConfig(path, 'a mapping key must be a scalar')
    if (k.type === 'PLAIN' && k.source === '<<') throw invalidConfig(path, 'merge keys (<<) are not allowed')
    return typeof k.value === 'string' ? k.value : (typeof k.source === 'string' ? k.source : String(k.value))
  }

  const walk = (node, path, depth) => {
    if (node === null || node === undefined) { grow(4, path); return { value: null } } // null
    if (isAlias(node)) {
      const target = node.resolve(doc)
      // D-48: an alias to no anchor is not valid YAML, path "" (first read as the alias's path)
      if (!target) throw invalidConfig('', `the alias *${node.source} refers to no anchor`)
      if (active.has(target)) throw invalidConfig(path, `the alias *${node.source} refers to itself`)
      active.add(target)
      try { return walk(target, path, depth) } finally { active.delete(target) }
    }
    if (isMap(node) || isSeq(node)) {
      if (node.tag && node.tag !== '!' && node.tag !== (isMap(node) ? 'tag:yaml.org,2002:map' : 'tag:yaml.org,2002:seq')) {
        foreign.set(path, node.tag)
      }
      if (depth + 1 > MAX_DEPTH) {
        throw invalidConfig(path, `nesting deeper than ${MAX_DEPTH} levels (line ${lineOf(text, node.range?.[0] ?? 0)})`)
      }
      active.add(node)
      try {
        if (isSeq(node)) {
          const arr = []
          grow(1, path) // [
          node.items.forEach((item, i) => {
            if (i > 0) grow(1, path) // ,
            arr.push(walk(item, join(path, i), depth + 1).value)
          })
          grow(1, path) // ]
          return { value: arr }
        }
        const obj = Object.create(null)
        grow(1, path) // {
        let first = true
        for (const pair of node.items) {
          const k = keyOf(pair.key, path)
          const p = join(path, k)
          if (Object.hasOwn(obj, k)) throw invalidConfig(p, `the key ${JSON.stringify(k)} is given twice`)
          grow(Buffer.byteLength(JSON.stringify(k), 'utf8') + (first ? 1 : 2), p) // ,"key":
          first = false
          const r = walk(pair.value, p, depth + 1)
          obj[k] = r.value
          if (r.raw !== undefined) {
            if (!obj[NUMRAW]) Object.defineProperty(obj, NUMRAW, { value: Object.create(null) })
            obj[NUMRAW][k] = r.raw
          }
        }
        grow(1, path) // }
        return { value: obj }
      } finally {
        active.delete(node)
      }
    }
    if (isScalar(node)) {
      const r = scalar(node, path)
      const v = r.value
      grow(typeof v === 'string' ? Buffer.byteLength(JSON.stringify(v), 'utf8') : typeof v === 'number' ? (Number.isFinite(v) ? String(v).length : 4) : String(v).length, path)
      return r
    }
    throw invalidConfig(path, 'an unsupported YAML node')
  }
  try {
    return { root: walk(doc.contents, '', 0).value, foreign }
  } catch (e) {
    if (e instanceof RangeError) throw new TooDeep()
    throw e
  }
}

// TooDeep is a document the YAML library cannot read on this thread's stack
// (it recurses per level, and overflows below the 1,000 levels CONF-6
// allows); it is read again on a thread with a larger stack.
class TooDeep extends Error {}

function readJson(text) {
  if (/^[ \t\n\r]*$/.test(text)) return { root: null, foreign: new Map() } // an empty file (CONF-2)
  try {
    return { root: parseJson(text, { dupKeys: 'error', maxDepth: MAX_DEPTH }), foreign: new Map() }
  } catch (e) {
    if (e instanceof JsonSyntaxError) throw invalidConfig(e.path ?? '', `the JSON is not valid: ${e.message}`)
    throw e
  }
}

// resolveDocument is the effective configuration of a parsed file.
export function resolveDocument(root, foreign = new Map()) {
  // a member of ours whose node has a tag outside the core schema has no
  // reading (CONF-6); a host's member may carry any tag (CONF-5)
  const readable = (path) => {
    if (foreign.has(path)) throw invalidConfig(path, `the tag ${foreign.get(path)} is not one of the YAML 1.2 core schema`)
  }
  readable('')
  const result = (set, from, warnings) => {
    const cfg = effective(set)
    return { config: cfg, max_messages_from: from, warnings: warnings.concat(creationWarnings(cfg)) }
  }
  if (root === null || root === undefined) return result({}, 'default', [])
  if (!isObject(root)) throw invalidConfig('', 'the top level of a config file must be a mapping')
  const exec = root.execution
  readable('execution')
  if (exec === undefined || exec === null) return result({}, 'default', [])
  if (!isObject(exec)) throw invalidConfig('execution', 'must be a mapping')
  readable('execution.max_conversation_messages')
  readable('execution.conversation')
  if (isObject(exec.conversation)) for (const k of Object.keys(exec.conversation)) readable(`execution.conversation.${k}`)
  let short
  if (exec.max_conversation_messages !== undefined && exec.max_conversation_messages !== null) {
    short = readCountMember(exec, 'max_conversation_messages', 'execution.max_conversation_messages')
  }
  const block = readConfig(exec.conversation, 'execution.conversation')
  const set = { ...block }
  const warnings = []
  let from = 'default'
  if (block.max_messages !== undefined) {
    from = 'conversation'
    if (short !== undefined && short !== block.max_messages) {
      warnings.push({ code: 'config_shorthand_overridden', message: `execution.conversation.max_messages (${block.max_messages}) overrides execution.max_conversation_messages (${short})` })
    }
  } else if (short !== undefined) {
    from = 'shorthand'
    set.max_messages = short
  }
  return result(set, from, warnings)
}

// readFileParam reads {"format", "text"} (protocol.md, config.resolve).
export function resolveText(format, text) {
  const { root, foreign } = format === 'yaml' ? readYaml(text) : readJson(text)
  return resolveDocument(root, foreign)
}

// nestingBound is a cheap upper bound of a YAML text's nesting: flow
// brackets open outside quotes and comments, plus block indentation levels,
// plus compact "- " and "? " entries. The YAML library recurses once per
// level and, far beyond the limit, even takes the process down (an
// out-of-memory abort at 20,000 flow levels), so a text whose bound is far
// beyond the limit is refused before the library sees it, and one near the
// limit is read on a thread with a larger stack.
export function nestingBound(text) {
  let flow = 0
  let max = 0
  const indents = []
  for (const line of text.split('\n')) {
    let i = 0
    if (flow === 0) {
      while (line[i] === ' ') i++
      if (i === line.length || line[i] === '#') continue
      while (indents.length && indents[indents.length - 1] >= i) indents.pop()
      indents.push(i)
      let compact = 0
      while ((line[i] === '-' || line[i] === '?') && (line[i + 1] === ' ' || line[i + 1] === undefined)) { compact++; i += 2; while (line[i] === ' ') i++ }
      max = Math.max(max, indents.length + compact)
    }
    let quote = null
    for (; i < line.length; i++) {
      const ch = line[i]
      if (quote) {
        if (ch === '\\' && quote === '"') i++
        else if (ch === quote) quote = null
      } else if (ch === '"' || ch === "'") quote = ch
      else if (ch === '#' && (i === 0 || line[i - 1] === ' ' || line[i - 1] === '\t')) break
      else if (ch === '[' || ch === '{') { flow++; max = Math.max(max, indents.length + flow) } else if ((ch === ']' || ch === '}') && flow > 0) flow--
    }
  }
  return max
}

const READ_ON_BIG_STACK = 700
const REFUSE_UNREAD = 3000

export async function resolveParam(c, where = 'config') {
  if (!isObject(c)) throw invalidParams(`"${where}" must be an object with "format" and "text"`)
  if (c.format !== 'yaml' && c.format !== 'json') throw invalidParams(`${where}.format: must be "yaml" or "json", got ${JSON.stringify(c.format ?? null)}`)
  if (typeof c.text !== 'string') throw invalidParams(`${where}.text: must be a string`)
  if (c.format === 'yaml') {
    const bound = nestingBound(c.text)
    if (bound > REFUSE_UNREAD) throw invalidConfig('', `the document nests about ${bound} levels, deeper than ${MAX_DEPTH}`)
    if (bound > READ_ON_BIG_STACK) return resolveOnBigStack(c.format, c.text)
  }
  try {
    return resolveText(c.format, c.text)
  } catch (e) {
    if (!(e instanceof TooDeep)) throw e
  }
  return resolveOnBigStack(c.format, c.text)
}

const BIG_STACK_MB = 64

function resolveOnBigStack(format, text) {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./configworker.mjs', import.meta.url), { workerData: { format, text }, resourceLimits: { stackSizeMb: BIG_STACK_MB } })
    w.once('message', (m) => {
      if (m.ok) resolve(m.ok)
      else reject(new RpcError(m.error.kind, m.error.message, m.error.data))
    })
    w.once('error', (e) => reject(invalidConfig('', `the document could not be read: ${e.message}`)))
  })
}

// readInWorker is configworker.mjs's side: a document too deep even for the
// big stack is refused as a whole.
export function resolveHere(format, text) {
  try {
    return { ok: resolveText(format, text) }
  } catch (e) {
    if (e instanceof RpcError) return { error: { kind: e.kind, message: e.message, data: e.data } }
    if (e instanceof TooDeep) return { error: { kind: 'invalid_config', message: 'the document is nested too deeply to be read', data: { path: '' } } }
    throw e
  }
}
