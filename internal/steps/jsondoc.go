package steps

import (
	"strings"

	"github.com/cucumber/godog"

	"github.com/convspec/convspec/internal/deviation"
	"github.com/convspec/convspec/internal/jsoncmp"
)

// jsonIs compares got with the JSON of a scenario's doc string, as JSON
// (jsoncmp.Equal); differs says what differs when they do. The doc string
// is shown on one line, and got clipped.
func (w *world) jsonIs(differs string, got []byte, doc *godog.DocString) error {
	if !jsoncmp.Equal(got, []byte(doc.Content)) {
		return w.differs(deviation.Parts{Want: oneLine(doc.Content), Got: clip(got)}, "%s:\n  wanted %s\n  got    %s", differs, oneLine(doc.Content), clip(got))
	}
	return nil
}

// oneLine is a doc string's JSON on one line, for a failure message.
func oneLine(content string) string {
	return strings.Join(strings.Fields(content), " ")
}
