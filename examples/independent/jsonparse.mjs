// A JSON reader that keeps what JSON.parse throws away:
//  - the source span of every object and array (RAW), so that a message can
//    be sent back byte for byte as it came (MSG-2);
//  - the source text of every number member (NUMRAW), so that a count is read
//    exactly from its decimal text (CFG-3, D-40), not from a rounded double;
//  - invalid UTF-8 bytes, mapped to lone surrogates U+DC80–U+DCFF, so that a
//    message holding them is refused like one holding "\ud800" (MSG-1, D-9).
// It is iterative, so that deep nesting cannot overflow the stack, and it can
// refuse duplicate member names and nesting beyond a depth (CONF-6).
// Objects are built without a prototype, so "__proto__" is a member like any
// other; values otherwise are exactly those JSON.parse builds (a name given
// twice keeps its first place and its last value, EST-3).

export const RAW = Symbol('raw span')
export const NUMRAW = Symbol('raw numbers')

export class JsonSyntaxError extends Error {
  constructor(message, path = null) {
    super(message)
    this.path = path
  }
}

// decodeUtf8 decodes a line of bytes. Well-formed input decodes as usual;
// every byte of an ill-formed sequence becomes U+DC80 + (byte − 0x80).
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
export function decodeUtf8(buf) {
  try {
    return strictDecoder.decode(buf)
  } catch {
    return decodeLenient(buf)
  }
}

function decodeLenient(b) {
  let out = ''
  let i = 0
  const n = b.length
  const parts = []
  while (i < n) {
    const c = b[i]
    if (c < 0x80) { out += String.fromCharCode(c); i++ } else {
      let need = 0, cp = 0, min = 0
      if (c >= 0xc2 && c <= 0xdf) { need = 1; cp = c & 0x1f; min = 0x80 } else if (c >= 0xe0 && c <= 0xef) { need = 2; cp = c & 0x0f; min = 0x800 } else if (c >= 0xf0 && c <= 0xf4) { need = 3; cp = c & 0x07; min = 0x10000 }
      let ok = need > 0 && i + need < n
      if (ok) {
        for (let k = 1; k <= need; k++) {
          const d = b[i + k]
          if (d === undefined || (d & 0xc0) !== 0x80) { ok = false; break }
          cp = (cp << 6) | (d & 0x3f)
        }
      }
      if (ok && (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))) ok = false
      if (ok) { out += String.fromCodePoint(cp); i += need + 1 } else { out += String.fromCharCode(0xdc00 + c); i++ }
    }
    if (out.length > 65536) { parts.push(out); out = '' }
  }
  parts.push(out)
  return parts.join('')
}

const NUM = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y
const PLAIN = /[^"\\\u0000-\u001f]*/y

function describe(text, pos) {
  if (pos >= text.length) return 'unexpected end of JSON input'
  const ch = text.codePointAt(pos)
  return `unexpected character ${JSON.stringify(String.fromCodePoint(ch))} at offset ${pos}`
}

// pathOf renders the members and elements open on the stack as a dotted path
// (elements as [i]), for errors that concern a place in the document.
export function pathOf(frames, extraKey) {
  let p = ''
  const add = (k) => {
    if (typeof k === 'number') p += `[${k}]`
    else p += p === '' ? k : `.${k}`
  }
  for (const f of frames) if (f.key !== undefined) add(f.key)
  if (extraKey !== undefined) add(extraKey)
  return p
}

// parse reads one JSON text. Options: dupKeys 'last' (as JSON.parse) or
// 'error'; maxDepth, the deepest nesting of objects and arrays allowed.
// (Characters are compared as char codes, whitespace is skipped by a loop
// and a container's raw numbers are kept on its frame: performance changes
// that read the same texts, with the same values and errors.)
export function parse(text, { dupKeys = 'last', maxDepth = Infinity } = {}) {
  let pos = 0
  const frames = [] // {container, isArr, start, key, numRaw}
  const ws = () => {
    let c = text.charCodeAt(pos)
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++pos)
  }
  const fail = (msg) => { throw new JsonSyntaxError(msg ?? describe(text, pos)) }

  const readString = () => {
    // text[pos] === '"'
    pos++
    let out = ''
    for (;;) {
      PLAIN.lastIndex = pos
      PLAIN.exec(text)
      const end = PLAIN.lastIndex
      if (end > pos) { out += text.slice(pos, end); pos = end }
      const c = text.charCodeAt(pos)
      if (c === 0x22) { pos++; return out }
      if (c === 0x5c) {
        switch (text.charCodeAt(pos + 1)) {
          case 0x22: out += '"'; break
          case 0x5c: out += '\\'; break
          case 0x2f: out += '/'; break
          case 0x62: out += '\b'; break
          case 0x66: out += '\f'; break
          case 0x6e: out += '\n'; break
          case 0x72: out += '\r'; break
          case 0x74: out += '\t'; break
          case 0x75: {
            let u = 0
            for (let k = pos + 2; k < pos + 6; k++) {
              const d = hexDigit(text.charCodeAt(k))
              if (d < 0) fail(`bad \\u escape at offset ${pos}`)
              u = u * 16 + d
            }
            out += String.fromCharCode(u)
            pos += 4
            break
          }
          default: fail(`bad escape at offset ${pos}`)
        }
        pos += 2
        continue
      }
      if (Number.isNaN(c)) fail('unterminated string')
      fail(`control character in string at offset ${pos}`)
    }
  }

  let value
  let numRaw = null
  // state machine: read a value, then attach it to the open container.
  outer: for (;;) {
    ws()
    const c = text.charCodeAt(pos)
    numRaw = null
    if (c === 0x7b || c === 0x5b) {
      if (frames.length + 1 > maxDepth) {
        throw new JsonSyntaxError(`nesting deeper than ${maxDepth} levels at offset ${pos}`, pathOf(frames))
      }
      const isArr = c === 0x5b
      const container = isArr ? [] : Object.create(null)
      const frame = { container, isArr, start: pos, key: undefined, numRaw: null }
      pos++
      ws()
      if (text.charCodeAt(pos) === (isArr ? 0x5d : 0x7d)) {
        pos++
        Object.defineProperty(container, RAW, { value: [frame.start, pos, text] })
        value = container
      } else {
        frames.push(frame)
        if (isArr) {
          frame.key = 0
        } else {
          if (text.charCodeAt(pos) !== 0x22) fail()
          frame.key = readString()
          ws()
          if (text.charCodeAt(pos) !== 0x3a) fail()
          pos++
        }
        continue outer
      }
    } else if (c === 0x22) {
      value = readString()
    } else if (c === 0x74 && text.startsWith('true', pos)) { value = true; pos += 4 } else if (c === 0x66 && text.startsWith('false', pos)) { value = false; pos += 5 } else if (c === 0x6e && text.startsWith('null', pos)) { value = null; pos += 4 } else {
      NUM.lastIndex = pos
      const m = NUM.exec(text)
      if (!m) fail()
      numRaw = m[0]
      value = Number(numRaw)
      pos = NUM.lastIndex
    }
    // attach the completed value, closing containers as they end
    for (;;) {
      if (frames.length === 0) {
        ws()
        if (pos < text.length) fail(`unexpected text after the JSON value at offset ${pos}`)
        return value
      }
      const f = frames[frames.length - 1]
      if (f.isArr) {
        f.container.push(value)
      } else {
        const k = f.key
        if (dupKeys === 'error' && Object.hasOwn(f.container, k)) {
          throw new JsonSyntaxError(`member ${JSON.stringify(k)} is given twice`, pathOf(frames))
        }
        f.container[k] = value
        if (numRaw !== null) {
          if (f.numRaw === null) {
            f.numRaw = Object.create(null)
            Object.defineProperty(f.container, NUMRAW, { value: f.numRaw })
          }
          f.numRaw[k] = numRaw
        } else if (f.numRaw !== null && k in f.numRaw) {
          delete f.numRaw[k]
        }
      }
      numRaw = null
      ws()
      const d = text.charCodeAt(pos)
      if (d === 0x2c) {
        pos++
        if (f.isArr) {
          f.key++
        } else {
          ws()
          if (text.charCodeAt(pos) !== 0x22) fail()
          f.key = readString()
          ws()
          if (text.charCodeAt(pos) !== 0x3a) fail()
          pos++
        }
        continue outer
      }
      if (d === (f.isArr ? 0x5d : 0x7d)) {
        pos++
        frames.pop()
        Object.defineProperty(f.container, RAW, { value: [f.start, pos, text] })
        value = f.container
        continue
      }
      fail()
    }
  }
}

// hexDigit is the value of a hexadecimal digit's char code, or -1.
function hexDigit(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30
  if (c >= 0x61 && c <= 0x66) return c - 0x57
  if (c >= 0x41 && c <= 0x46) return c - 0x37
  return -1
}
