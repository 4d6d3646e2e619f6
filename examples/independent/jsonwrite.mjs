// Writing JSON. compact() is ECMAScript's JSON.stringify for parsed values
// (EST-3), written without recursion so that deep content cannot overflow
// the stack. serialize() writes a response: an object or array that was read
// from the request (it carries RAW) is written back as the very text it was
// read from, so a returned message is the input message (MSG-2).
import { RAW } from './jsonparse.mjs'

function leaf(v) {
  switch (typeof v) {
    case 'number': return Number.isFinite(v) ? String(v) : 'null'
    case 'string': return JSON.stringify(v)
    case 'boolean': return v ? 'true' : 'false'
    case 'bigint': return v.toString()
    default: return 'null' // null, and undefined inside an array
  }
}

function keysOf(o) {
  return Object.keys(o).filter((k) => o[k] !== undefined && typeof o[k] !== 'function')
}

function write(root, useRaw) {
  const out = []
  const stack = []
  let v = root
  for (;;) {
    let opened = false
    if (v === null || typeof v !== 'object') {
      out.push(leaf(v))
    } else if (useRaw && v[RAW]) {
      const [s, e, text] = v[RAW]
      out.push(text.slice(s, e))
    } else if (Array.isArray(v)) {
      if (v.length === 0) out.push('[]')
      else { out.push('['); stack.push({ arr: v, i: 0 }); v = v[0]; opened = true }
    } else {
      const keys = keysOf(v)
      if (keys.length === 0) out.push('{}')
      else {
        out.push('{' + JSON.stringify(keys[0]) + ':')
        stack.push({ obj: v, keys, i: 0 })
        v = v[keys[0]]
        opened = true
      }
    }
    if (opened) continue
    for (;;) {
      if (stack.length === 0) return out.join('')
      const f = stack[stack.length - 1]
      f.i++
      if (f.arr) {
        if (f.i < f.arr.length) { out.push(','); v = f.arr[f.i]; break }
        out.push(']')
      } else {
        if (f.i < f.keys.length) { out.push(',' + JSON.stringify(f.keys[f.i]) + ':'); v = f.obj[f.keys[f.i]]; break }
        out.push('}')
      }
      stack.pop()
    }
  }
}

// compact is JSON.stringify itself where it can be (a performance change):
// on the values compact is given, read by parse or built by this
// implementation (no toJSON methods, symbols or bigints), the two write the
// same text, and JSON.stringify is native. Where it cannot, content nested
// deeper than its stack or a value it writes nothing for, write does.
export function compact(v) {
  if (v !== null && typeof v === 'object') {
    let s
    try {
      s = JSON.stringify(v)
    } catch {
      s = undefined
    }
    if (s !== undefined) return s
  }
  return write(v, false)
}
export const serialize = (v) => write(v, true)
