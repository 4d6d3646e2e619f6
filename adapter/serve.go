package adapter

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/inprocess"
	"github.com/convspec/convspec/internal/server"
)

// Implementation is what the handshake names and the capabilities' calls
// reach. Impl implements one or more of Windows, Summarizing, History,
// Tokenizer and ConfigResolver (or is nil, for an implementation of
// Trimmers alone).
type Implementation struct {
	Name    string
	Version string
	Impl    any
	// Levels and Formats declare the levels the implementation implements
	// and the provider formats it reads (D-42); nil declares all of them,
	// and the cases of the others are reported not applicable.
	Levels  []string
	Formats []string
	// Trimmers, when given, declare capability trimmer (SPEC §8d).
	Trimmers []Trimmer
}

// Capabilities are those Impl implements, in protocol order; Summarizing
// counts only with Windows, since summaries happen in a window's trims.
func (i Implementation) Capabilities() []string {
	var caps []string
	_, win := i.Impl.(Windows)
	if win {
		caps = append(caps, protocol.CapWindow)
	}
	if _, ok := i.Impl.(Summarizing); ok && win {
		caps = append(caps, protocol.CapSummarize)
	}
	if _, ok := i.Impl.(History); ok {
		caps = append(caps, protocol.CapHistory)
	}
	if _, ok := i.Impl.(Tokenizer); ok {
		caps = append(caps, protocol.CapTokens)
	}
	if _, ok := i.Impl.(ConfigResolver); ok {
		caps = append(caps, protocol.CapConfig)
	}
	if len(i.Trimmers) > 0 {
		caps = append(caps, protocol.CapTrimmer)
	}
	return caps
}

func (i Implementation) check() error {
	switch {
	case i.Name == "":
		return errors.New("adapter: Implementation.Name is empty (the handshake names the implementation)")
	case len(i.Capabilities()) == 0:
		return fmt.Errorf("adapter: %T implements none of Windows, History, Tokenizer, ConfigResolver, and no Trimmers are given: nothing to test", i.Impl)
	}
	return i.checkDeclarations()
}

// Serve answers the suite's requests read from r on w until r ends or the
// suite asks to shut down.
func Serve(ctx context.Context, impl Implementation, r io.Reader, w io.Writer) error {
	if err := impl.check(); err != nil {
		return err
	}
	return server.Serve(ctx, newDispatcher(impl), r, w)
}

// Main serves impl on stdin and stdout and exits: the whole main function
// of an adapter program. Logs belong on stderr, which the suite shows on a
// failure.
func Main(impl Implementation) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := Serve(ctx, impl, os.Stdin, os.Stdout)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// InProcess is impl as a target.Target without a process, for
// conformtest.Run and for a Go program's own tests. Params and results
// still travel as JSON.
func InProcess(impl Implementation) (target.Target, error) {
	if err := impl.check(); err != nil {
		return nil, err
	}
	return inprocess.Serve(newDispatcher(impl))
}

// Errorf is an error of a protocol kind (protocol.KindInvalidMessage,
// protocol.KindInvalidConfig, …; spec/protocol.md, "Errors"). Any other
// error an implementation returns is reported as internal_error.
func Errorf(kind, format string, args ...any) error {
	return protocol.NewError(kind, format, args...)
}
