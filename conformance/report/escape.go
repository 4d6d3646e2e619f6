package report

import "github.com/convspec/convspec/internal/textsafe"

// What the implementation sends — its name, its messages, the last lines of
// its stderr — ends up in reports that people and tools read: a terminal or
// CI log, a GitHub step summary, an HTML page, a JUnit file. Each format has
// one escaping layer, applied where the report is written, so that nothing
// the implementation sends can act on the reader (D-52): no terminal
// control sequence (ESC/CSI/OSC, BEL, a CR that rewrites a line), no line
// of its own in a log, no Markdown structure, no HTML or XML markup.

// EscapeText makes s safe for a terminal or a CI log, keeping its line
// breaks: every control character but newline and tab — C0, DEL, C1 — a
// Unicode line or paragraph separator, a bidirectional control and every
// byte that is not UTF-8 is written as a visible escape (\x1b, \r, \u2028,
// \xff). The caller indents each line of a block, so that none of them can
// pass for a line of the report.
func EscapeText(s string) string { return textsafe.Controls(s, true) }

// EscapeTextLine is EscapeText for a value on one line of a report or a
// message: a newline is escaped too.
func EscapeTextLine(s string) string { return textsafe.Controls(s, false) }

// textLine is EscapeTextLine.
func textLine(s string) string { return textsafe.Controls(s, false) }
