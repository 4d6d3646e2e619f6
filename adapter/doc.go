// Package adapter serves a Go implementation of conversation-history
// management to the convspec conformance suite: the protocol's framing,
// JSON-RPC, window handles, the scripted summarizer and error mapping are
// the kit's, so that an adapter is only the calls into one's own library.
// `conform init go DIR` writes a starter on it.
//
// An implementation is any value; the capabilities it declares in the
// handshake follow from the interfaces it implements (Windows, Summarizing,
// History, Tokenizer, ConfigResolver). Serve it over stdin and stdout for
// `conform ./my-impl`:
//
//	func main() {
//		adapter.Main(adapter.Implementation{Name: "mylib", Version: "1.2.0", Impl: mylib{}})
//	}
//
// or run the whole suite inside `go test` with package conformtest:
//
//	func TestConform(t *testing.T) {
//		conformtest.Run(t, adapter.Implementation{Name: "mylib", Version: "1.2.0", Impl: mylib{}})
//	}
//
// Implementation also carries the handshake's declarations (D-42, D-54):
// Levels and Formats, the levels implemented and the provider formats read
// (nil: all), and Trimmers, which declare capability trimmer (SPEC §8d),
// each a protocol.TrimmerDecl with its Trim function; Chars4 and Cl100k
// count a message as ANY-6's counters do. A declaration ANY-10 refuses is an
// error from Serve, before any request.
//
// Messages travel as json.RawMessage: decode them into your own types, and
// return the input messages you keep (Originals maps rebuilt messages back
// to them), because the suite requires kept messages unchanged (MSG-2).
package adapter
