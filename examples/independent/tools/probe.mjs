// Sends the same request sequences to this implementation and to the
// reference served by `conform serve`, and prints where they differ
// (free text ignored, as golden.md's comparison does).
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'

function proc(cmd, args) {
  const p = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  let buf = ''
  const waiting = []
  p.stdout.on('data', (d) => {
    buf += d.toString('utf8')
    let i
    while ((i = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, i); buf = buf.slice(i + 1)
      const w = waiting.shift(); if (w) w(line)
    }
  })
  let id = 0
  return {
    rawBytes(b) { p.stdin.write(Buffer.concat([b, Buffer.from('\n')])); return new Promise((r) => waiting.push(r)) },
    raw(line, expect = true) { p.stdin.write(line + '\n'); return expect ? new Promise((r) => waiting.push(r)) : Promise.resolve(null) },
    req(method, params) { id++; const o = { jsonrpc: '2.0', id, method }; if (params !== undefined) o.params = params; return this.raw(JSON.stringify(o)) },
    reqRaw(method, paramsText) { id++; return this.raw(`{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${paramsText}}`) },
    close() { p.stdin.end() },
  }
}

const mine = proc('node', [new URL('../adapter.mjs', import.meta.url).pathname])
const ref = proc(process.env.CONFORM || '/tmp/blind-conform', ['serve'])
await mine.req('initialize', { protocol: 1, suite: 'convspec' })
await ref.req('initialize', { protocol: 1, suite: 'convspec' })

function strip(v, key) {
  if (Array.isArray(v)) return v.map((x) => strip(x, key))
  if (v && typeof v === 'object') {
    const o = {}
    for (const k of Object.keys(v)) {
      if (k === 'message' && (key === 'warnings' || key === 'events' || key === 'error')) continue
      if (k === 'id' && key === 'top') continue
      if (k === 'window' && key === 'result') continue
      o[k] = strip(v[k], k === 'result' || k === 'error' || k === 'warnings' || k === 'events' ? k : (key === 'warnings' || key === 'events' ? key : k))
    }
    return o
  }
  return v
}

function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys)
  if (v && typeof v === 'object') { const o = {}; for (const k of Object.keys(v).sort()) o[k] = sortKeys(v[k]); return o }
  return v
}
const probes = JSON.parse(readFileSync(process.argv[2], 'utf8'))
let diffs = 0
for (const pr of probes) {
  const hs = { mine: null, ref: null }
  const outs = []
  for (const step of pr.steps) {
    const res = {}
    for (const [name, side] of [['mine', mine], ['ref', ref]]) {
      let text
      if (step.lineB64 !== undefined) text = await side.rawBytes(Buffer.from(step.lineB64, 'base64'))
      else if (step.line !== undefined) text = await side.raw(step.line, step.noreply !== true)
      else {
        let ps = step.paramsText ?? JSON.stringify(step.params)
        if (hs[name]) ps = ps.split('"$w"').join(JSON.stringify(hs[name]))
        text = await side.reqRaw(step.method, ps)
      }
      res[name] = text
      if (step.method === 'window.create' && text) {
        try { hs[name] = JSON.parse(text).result?.window ?? hs[name] } catch {}
      }
    }
    let a, b
    const norm = (t, other) => {
      const o = strip(JSON.parse(t), 'top')
      if (o.error) {
        const od = JSON.parse(other)?.error?.data ?? {}
        const d = {}
        for (const k of Object.keys(o.error.data ?? {})) if (k in od) d[k] = o.error.data[k]
        return JSON.stringify({ kind: o.error.data?.kind, data: d })
      }
      return JSON.stringify(sortKeys(o))
    }
    try { a = norm(res.mine, res.ref) } catch { a = res.mine }
    try { b = norm(res.ref, res.mine) } catch { b = res.ref }
    outs.push({ step, same: a === b, mine: res.mine, ref: res.ref })
  }
  const bad = outs.filter((o) => !o.same)
  console.log(`${bad.length ? 'DIFF' : 'same'} ${pr.name}`)
  for (const o of bad) {
    diffs++
    console.log(`   request: ${o.step.line ?? o.step.method + ' ' + (o.step.paramsText ?? JSON.stringify(o.step.params))}`.slice(0, 600))
    console.log(`   mine:    ${o.mine}`.slice(0, +(process.env.W || 700)))
    console.log(`   ref:     ${o.ref}`.slice(0, +(process.env.W || 700)))
  }
}
console.log('differing steps:', diffs)
mine.close(); ref.close()
