package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/convspec/convspec/internal/runner"
)

// progressModes are the values of -progress.
var progressModes = []string{"auto", "on", "off"}

// progressShown says whether a run shows its progress on stderr: -progress
// on or off decides; auto (the default) shows it on a terminal, and not
// under CI (the CI variable set), where a log keeps every line.
func progressShown(mode string, stderr io.Writer) bool {
	switch mode {
	case "on":
		return true
	case "off":
		return false
	}
	return isTerminal(stderr) && os.Getenv("CI") == ""
}

// isTerminal says whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressWriter shows a run's progress: on a terminal one line rewritten
// in place (at most ten times a second, cleared at the end), elsewhere a
// line at every tenth of the cases. It never writes to stdout, which holds
// the report.
type progressWriter struct {
	w        io.Writer
	terminal bool

	mu      sync.Mutex
	last    time.Time
	decile  int
	written bool
}

func newProgressWriter(w io.Writer) *progressWriter {
	return &progressWriter{w: w, terminal: isTerminal(w)}
}

// show is a runner.Options.Progress.
func (p *progressWriter) show(pr runner.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.terminal {
		if pr.Total > 0 && pr.Done*10/pr.Total > p.decile {
			p.decile = pr.Done * 10 / pr.Total
			fmt.Fprintf(p.w, "conform: %d of %d cases done\n", pr.Done, pr.Total)
		}
		return
	}
	if now := time.Now(); now.Sub(p.last) >= 100*time.Millisecond || pr.Done == pr.Total {
		p.last = now
		line := fmt.Sprintf("[%d/%d]", pr.Done, pr.Total)
		if len(pr.Running) > 0 {
			line += " " + strings.Join(pr.Running, ", ")
		}
		if len(line) > 100 {
			line = line[:99] + "…"
		}
		// \r and erase-line: the line is rewritten in place.
		fmt.Fprintf(p.w, "\r\x1b[K%s", line)
		p.written = true
	}
}

// clear removes the progress line before the report is written.
func (p *progressWriter) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal && p.written {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
