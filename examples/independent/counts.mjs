// Counts (CFG-3) and ratios read exactly from their decimal text (D-40):
// 3, 3.0 and 3e0 are the count 3; 9007199254740991.0000000001 is not a count.
import { NUMRAW } from './jsonparse.mjs'

export const MAX_COUNT = 2n ** 53n - 1n

// decimal splits a decimal numeral into sign, significant digits and a power
// of ten, the digits without leading or trailing zeros; null if it is not one.
export function decimal(raw) {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(raw)
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null
  const frac = m[3] ?? ''
  let digits = (m[2] + frac).replace(/^0+/, '')
  let exp = BigInt(m[4] ?? '0') - BigInt(frac.length)
  const trimmed = digits.replace(/0+$/, '')
  exp += BigInt(digits.length - trimmed.length)
  digits = trimmed
  return { neg: m[1] === '-', digits, exp }
}

// countOf returns the count a numeral denotes, or null.
export function countOf(raw) {
  const d = decimal(raw)
  if (!d) return null
  if (d.digits === '') return 0 // 0, 0.0, -0
  if (d.neg || d.exp < 0n) return null
  if (BigInt(d.digits.length) + d.exp > 16n) return null
  const v = BigInt(d.digits) * 10n ** d.exp
  return v <= MAX_COUNT ? Number(v) : null
}

// percentOf returns a ratio's value times 100 when that is an integer, else null.
export function percentOf(raw) {
  const d = decimal(raw)
  if (!d) return null
  if (d.digits === '') return 0
  const e = d.exp + 2n
  if (e < 0n) return null
  if (BigInt(d.digits.length) + e > 6n) return d.neg ? -Infinity : Infinity
  const v = Number(BigInt(d.digits) * 10n ** e)
  return d.neg ? -v : v
}

// rawNumber is the source text of a number member of a parsed object.
export function rawNumber(obj, key) {
  const v = obj[key]
  if (typeof v !== 'number') return null
  return obj[NUMRAW]?.[key] ?? String(v)
}

export function describeValue(obj, key) {
  const raw = rawNumber(obj, key)
  if (raw !== null) return raw
  const v = obj[key]
  if (v === undefined) return 'nothing'
  try { return JSON.stringify(v) ?? String(v) } catch { return typeof v }
}

// readCount reads member key of obj as a count: undefined when absent (or
// null, when nullIsAbsent), else the number; null when it is not a count.
export function memberCount(obj, key) {
  const raw = rawNumber(obj, key)
  if (raw === null) return null
  return countOf(raw)
}
