// Package adapter serves a Go implementation of conversation-history
// management to the convspec conformance suite: the protocol's framing,
// JSON-RPC, window handles, the scripted summarizer and error mapping are
// the kit's, so that an adapter is only the calls into one's own library.
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
// Messages travel as json.RawMessage: decode them into your own types, and
// return the input messages you keep (Originals maps rebuilt messages back
// to them), because the suite requires kept messages unchanged (MSG-2).
package adapter
