#!/usr/bin/env node
// An independent convspec implementation, written from spec/ alone: the
// entry point. `node adapter.mjs` speaks protocol v1 on stdin and stdout.
import { serve } from './framing.mjs'
import { RpcError, invalidParams } from './errors.mjs'
import { isObject, requireMessages, units } from './messages.mjs'
import { readConfig, effective, creationWarnings, Window } from './window.mjs'
import { estimate } from './estimate.mjs'
import { parseScript, summarize } from './summarize.mjs'
import { classifyAll, prune as historyPrune, build } from './history.mjs'
import { encode, forgetCounts } from './tokens.mjs'
import { limitOf, countAll, over, prune as budgetPrune, compressRequest, prepare, WARN_PERCENT, HARD_PERCENT } from './budget.mjs'
import { resolveParam } from './config.mjs'
import { run } from './loop.mjs'
import { declarations, trim as trimmerTrim } from './trimmers.mjs'
import { rawNumber, countOf, describeValue } from './counts.mjs'

const NAME = 'convspec-independent-js'
const VERSION = '0.1.0'
const CAPABILITIES = ['window', 'window.summarize', 'history', 'budget', 'tokens.cl100k', 'config', 'loop', 'trimmer']

// A narrower declaration, for checking that every verdict of the suite
// respects what is declared (D-42, D-47): CONVSPEC_LEVELS and
// CONVSPEC_FORMATS are comma-separated lists put in the handshake as they
// are; unset, the handshake leaves levels and formats out (all of them).
// (Added after the implementation was written, by the session that wired it
// into the repository's tests; it changes nothing else.)
const declared = (name) => (process.env[name] ? process.env[name].split(',') : undefined)
const LEVELS = declared('CONVSPEC_LEVELS')
const FORMATS = declared('CONVSPEC_FORMATS')

const windows = new Map()
let nextWindow = 1

function windowOf(p) {
  const h = p.window
  if (typeof h !== 'string') throw invalidParams('"window" must be the handle window.create returned')
  const w = windows.get(h)
  if (!w) throw invalidParams(`unknown window handle ${JSON.stringify(h)}`)
  return w
}

// optionalScript reads a summarizer that may be absent (SUM-8).
const optionalScript = (p) => (p.summarizer === undefined || p.summarizer === null ? null : parseScript(p.summarizer))
const requiredScript = (p) => {
  if (p.summarizer === undefined || p.summarizer === null) throw invalidParams('"summarizer" is missing')
  return parseScript(p.summarizer)
}

const METHODS = {
  initialize(p) {
    if (p.protocol !== 1) throw invalidParams(`this implementation speaks protocol 1, not ${describeValue(p, 'protocol')}`)
    return { protocol: 1, implementation: { name: NAME, version: VERSION }, capabilities: CAPABILITIES, trimmers: declarations(), ...(LEVELS && { levels: LEVELS }), ...(FORMATS && { formats: FORMATS }) }
  },
  shutdown: () => null,

  'window.create'(p) {
    const set = readConfig(p.config, 'config')
    const cfg = effective(set)
    const handle = `w${nextWindow++}`
    windows.set(handle, new Window(cfg))
    return { window: handle, config: cfg, warnings: creationWarnings(cfg) }
  },
  async 'window.trim'(p) {
    const w = windowOf(p)
    requireMessages(p.messages)
    const script = optionalScript(p)
    return w.trim(p.messages, script)
  },
  'window.estimate'(p) {
    return { tokens: estimate(requireMessages(p.messages)) }
  },
  async 'window.summarize'(p) {
    const msgs = requireMessages(p.messages)
    return summarize(msgs, requiredScript(p))
  },

  'history.classify': (p) => classifyAll(p.messages),
  'history.prune': (p) => historyPrune(p.messages),
  'history.build'(p) {
    const msgs = requireMessages(p.messages)
    const raw = rawNumber(p, 'max_messages')
    const max = raw === null ? null : countOf(raw)
    if (max === null) throw invalidParams(`max_messages: must be a non-negative integer count, got ${describeValue(p, 'max_messages')}`)
    return build(msgs, max)
  },

  'tokens.encode'(p) {
    if (typeof p.text !== 'string') throw invalidParams('"text" must be a string')
    if (!p.text.isWellFormed()) throw invalidParams('"text" is not well-formed Unicode (an unpaired surrogate)')
    const tokens = encode(p.text)
    return { tokens, count: tokens.length }
  },

  'budget.count'(p) {
    const { per, total } = countAll(requireMessages(p.messages))
    return { tokens: total, per_message: per }
  },
  'budget.check'(p) {
    const msgs = requireMessages(p.messages)
    const { limit } = limitOf(p)
    const { total } = countAll(msgs)
    return { tokens: total, limit, approaching: over(total, limit, WARN_PERCENT), at_limit: over(total, limit, HARD_PERCENT) }
  },
  'budget.prune': (p) => budgetPrune(p),
  async 'budget.compress'(p) {
    const msgs = requireMessages(p.messages)
    return compressRequest(msgs, requiredScript(p))
  },
  async 'budget.prepare'(p) {
    const msgs = requireMessages(p.messages)
    const us = units(msgs)
    const { limit, model } = limitOf(p)
    const script = requiredScript(p)
    return prepare(msgs, us, limit, model, script)
  },

  'config.resolve'(p) {
    if (p.config === undefined) throw invalidParams('"config" is missing')
    return resolveParam(p.config)
  },
  'loop.run': (p) => run(p),
  'trimmer.trim': (p) => trimmerTrim(p),
}

async function handle(method, params) {
  if (!Object.hasOwn(METHODS, method)) throw new RpcError('method_not_found', `unknown method ${JSON.stringify(method)}`)
  let p = params
  if (p === undefined || p === null) p = Object.create(null)
  if (!isObject(p)) throw invalidParams('"params" must be an object')
  try {
    return await METHODS[method](p)
  } finally {
    forgetCounts() // a request's counts are not kept past its answer (tokens.mjs)
  }
}

serve(handle)
