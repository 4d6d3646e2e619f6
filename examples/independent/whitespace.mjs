// White space is the Unicode White_Space property, code point by code point
// (section 6a, D-31): not U+FEFF, not U+001C–U+001F.
const WS = '\\u0009-\\u000d\\u0020\\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000'
const EDGES = new RegExp(`^[${WS}]+|[${WS}]+$`, 'g')
const ONLY = new RegExp(`^[${WS}]*$`)

export const trimWhite = (s) => s.replace(EDGES, '')
export const isBlank = (s) => ONLY.test(s)
