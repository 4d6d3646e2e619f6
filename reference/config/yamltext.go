package config

import (
	"bytes"
	"unicode/utf8"

	"github.com/convspec/convspec/reference/message"
)

// This file reads the few things about a YAML text that go.yaml.in/yaml/v3
// does not report or does not accept, from the text itself.

// position is a node's place as the parser reports it: 1-based line and
// column, the column counted in characters.
type position struct{ line, column int }

// nonSpecificTags finds every place where a node's properties hold the
// non-specific tag "!" (YAML 1.2 §6.9.1): the parser resolves `! 5` as if
// it were untagged, the integer 5, where YAML 1.2 makes it the string "5"
// (CONF-6). The parser reports a node's place as where its properties
// begin, so the places recorded are those of a "!" that stands alone and of
// an anchor followed by one (`&a ! 5`). A place inside a comment or a quoted
// string is never where a plain scalar begins, so recording one is harmless.
// Lines and columns are counted as the parser counts them: a leading
// byte-order mark is not a character, and CR LF, CR, LF, NEL, LS and PS each
// end a line.
func nonSpecificTags(text []byte) map[position]bool {
	if bytes.IndexByte(text, '!') < 0 {
		return nil
	}
	found := map[position]bool{}
	text = bytes.TrimPrefix(text, []byte("\ufeff"))
	line, col := 1, 1
	var anchor *position // an anchor's place, while its name and the blanks after it are read
	inName := false
	for i := 0; i < len(text); {
		r, w := utf8.DecodeRune(text[i:])
		next := rune(-1)
		if i+w < len(text) {
			next, _ = utf8.DecodeRune(text[i+w:])
		}
		switch {
		case r == '!' && separates(next):
			if anchor != nil && !inName {
				found[*anchor] = true
			}
			found[position{line, col}] = true
			anchor = nil
		case r == '&':
			anchor, inName = &position{line, col}, true
		case inName && !separates(r):
			// the anchor's name goes on
		case inName:
			inName = false
			if r != ' ' && r != '\t' {
				anchor = nil
			}
		case anchor != nil && r != ' ' && r != '\t':
			anchor = nil
		}
		switch {
		case r == '\r' && next == '\n':
			i += 2
			line, col = line+1, 1
			anchor, inName = nil, false
			continue
		case r == '\r' || r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029':
			line, col = line+1, 1
			anchor, inName = nil, false
		default:
			col++
		}
		i += w
	}
	return found
}

// separates reports whether r may follow a tag or an anchor's name: white
// space, a line break, a flow indicator or the end of the text (-1).
func separates(r rune) bool {
	switch r {
	case -1, ' ', '\t', '\r', '\n', '\u0085', '\u2028', '\u2029', ',', '[', ']', '{', '}':
		return true
	}
	return false
}

// acceptVersion12 lets a document declare `%YAML 1.2`: the parser accepts
// only `%YAML 1.1`, yet a YAML 1.2 document is exactly what CONF-6 reads
// (the directive changes nothing here, since the core schema is applied
// whatever the version). The directive is rewritten in place, same length,
// so that lines and columns stay as they were; only the directives before
// the first document are looked at.
func acceptVersion12(text []byte) []byte {
	rest := bytes.TrimPrefix(text, []byte("\ufeff"))
	start := len(text) - len(rest)
	for start < len(text) {
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := bytes.TrimRight(text[start:end], "\r")
		trimmed := bytes.TrimLeft(line, " \t")
		switch {
		case len(trimmed) == 0 || trimmed[0] == '#':
		case bytes.HasPrefix(line, []byte("%YAML")):
			fields := bytes.Fields(line[len("%YAML"):])
			if len(line) > len("%YAML") && (line[5] == ' ' || line[5] == '\t') &&
				len(fields) > 0 && string(fields[0]) == "1.2" && (len(fields) == 1 || fields[1][0] == '#') {
				out := bytes.Clone(text)
				at := start + bytes.Index(line, []byte("1.2"))
				out[at+2] = '1'
				return out
			}
		case line[0] == '%':
		default:
			return text // the document has begun
		}
		start = end + 1
	}
	return text
}

// compactLen is the length in bytes of the compact form (EST-3) of the JSON
// value text, as JSON.stringify would write it.
func compactLen(text []byte) int {
	if isCompact(text) {
		return len(text)
	}
	s, err := message.Compact(text)
	if err != nil {
		return len(text)
	}
	return len(s)
}

// isCompact reports, without parsing it, whether text is a JSON value that
// is its own compact form, as nearly every scalar of a config is: a string
// with no escape (JSON.stringify escapes only what json.Marshal does, and
// more) or an integer of at most 15 digits (exact in a double, so written
// back digit for digit). Counting a billion laughs' millions of scalars
// was most of the time spent on them (D-91).
func isCompact(text []byte) bool {
	switch {
	case len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"':
		return bytes.IndexByte(text, '\\') < 0 && utf8.Valid(text)
	case len(text) == 1 && text[0] == '0':
		return true
	}
	digits := text
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 15 || digits[0] == '0' {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
