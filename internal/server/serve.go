package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/internal/jsonscan"
)

// Responder answers one request: a result to encode, or an error (a
// *protocol.Error keeps its kind; any other error is an internal_error).
// *Handler is one; the Go adapter kit's dispatcher is another, so that both
// share one framing.
type Responder interface {
	Handle(ctx context.Context, method string, params json.RawMessage) (any, error)
}

// Serve answers newline-delimited JSON-RPC requests read from r, one
// response line each on w, until r ends or a shutdown request has been
// answered (spec/protocol.md, "Lifecycle"). Malformed input gets an error
// response, never a crash.
func Serve(ctx context.Context, h Responder, r io.Reader, w io.Writer) error {
	in := bufio.NewReaderSize(r, 1<<16)
	out := bufio.NewWriter(w)
	for {
		line, long, readErr := readLine(in, protocol.MaxLineBytes)
		if long {
			resp := &protocol.Response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: protocol.NewError(protocol.KindInvalidRequest,
				"the request line is longer than the limit of %d bytes (%d MiB); it was not read", protocol.MaxLineBytes, protocol.MaxLineBytes>>20)}
			if err := writeLine(out, resp); err != nil {
				return err
			}
		} else if len(bytes.TrimSpace(line)) > 0 {
			resp, shutdown := answer(ctx, h, line)
			if resp != nil {
				if err := writeLine(out, resp); err != nil {
					return err
				}
			}
			if shutdown {
				return nil
			}
		}
		if readErr != nil {
			if errors.Is(readErr, io.EOF) {
				return nil
			}
			return readErr
		}
	}
}

// readLine reads one line of at most limit bytes; a longer one is read to
// its end and thrown away, never held whole (long is true then).
func readLine(in *bufio.Reader, limit int) (line []byte, long bool, err error) {
	for {
		chunk, err := in.ReadSlice('\n')
		if !long {
			if len(line)+len(chunk) > limit+1 { // the newline does not count
				long, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, long, err
		}
	}
}

func writeLine(out *bufio.Writer, resp *protocol.Response) error {
	b, err := encodeResponse(resp)
	if err != nil {
		b, _ = Marshal(protocol.Response{JSONRPC: "2.0", ID: resp.ID,
			Error: protocol.NewError(protocol.KindInternalError, "cannot encode result: %v", err)})
	}
	out.Write(b)
	out.WriteByte('\n')
	return out.Flush()
}

// answer handles one line; it returns nil for a notification.
func answer(ctx context.Context, h Responder, line []byte) (resp *protocol.Response, shutdown bool) {
	null := json.RawMessage("null")
	req, err := decodeRequest(line)
	if err != nil {
		if !jsonscan.Valid(bytes.TrimSpace(line)) {
			return &protocol.Response{JSONRPC: "2.0", ID: null, Error: protocol.NewError(protocol.KindParseError, "line is not JSON: %v", err)}, false
		}
		return &protocol.Response{JSONRPC: "2.0", ID: null, Error: protocol.NewError(protocol.KindInvalidRequest, "a request must be a JSON-RPC 2.0 object: %v", err)}, false
	}
	id := req.ID
	if len(id) == 0 {
		id = null
	} else if id[0] != '"' && !isNumber(id) {
		return &protocol.Response{JSONRPC: "2.0", ID: null, Error: protocol.NewError(protocol.KindInvalidRequest, "id must be a number or a string, got %s", id)}, false
	}
	if req.JSONRPC != "2.0" {
		return &protocol.Response{JSONRPC: "2.0", ID: id, Error: protocol.NewError(protocol.KindInvalidRequest, `"jsonrpc" must be "2.0"`)}, false
	}
	if req.Method == "" {
		return &protocol.Response{JSONRPC: "2.0", ID: id, Error: protocol.NewError(protocol.KindInvalidRequest, `"method" is missing`)}, false
	}
	var result any
	hh, ours := h.(*Handler)
	if ours {
		result, err = hh.handle(ctx, req.Method, req.Params) // a slice of the line checked whole
	} else {
		result, err = h.Handle(ctx, req.Method, req.Params)
	}
	shutdown = req.Method == protocol.MethodShutdown
	if len(req.ID) == 0 {
		return nil, shutdown // a notification gets no response
	}
	if err != nil {
		var pe *protocol.Error
		if !errors.As(err, &pe) {
			pe = protocol.NewError(protocol.KindInternalError, "%v", err)
		}
		return &protocol.Response{JSONRPC: "2.0", ID: id, Error: pe}, shutdown
	}
	raw, err := EncodeResult(h, result)
	if err != nil {
		return &protocol.Response{JSONRPC: "2.0", ID: id, Error: protocol.NewError(protocol.KindInternalError, "cannot encode result: %v", err)}, shutdown
	}
	if len(raw) > protocol.MaxResultBytes {
		return &protocol.Response{JSONRPC: "2.0", ID: id, Error: tooLarge(len(raw))}, shutdown
	}
	return &protocol.Response{JSONRPC: "2.0", ID: id, Result: raw}, shutdown
}

// tooLarge refuses a request whose answer would be n bytes, over the
// protocol's limit on a result (protocol.md, "Limits").
func tooLarge(n int) *protocol.Error {
	return protocol.NewError(protocol.KindInvalidParams, "the answer would be %d bytes, over the limit of %d bytes (%d MiB) on a result; send a smaller request",
		n, protocol.MaxResultBytes, protocol.MaxLineBytes>>20)
}

func isNumber(raw json.RawMessage) bool {
	var f float64
	return json.Unmarshal(raw, &f) == nil
}

// Marshal encodes v as the protocol's lines carry it: without HTML
// escaping, so strings travel as sent, and without a final newline. The
// golden case files keep their messages in the same bytes.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}

// AnswerLine answers one raw request line as Serve would, returning the
// response line (without newline), or nil for a notification. It lets the
// in-process target send lines that are not valid requests.
func AnswerLine(ctx context.Context, h Responder, line []byte) []byte {
	resp, _ := answer(ctx, h, line)
	if resp == nil {
		return nil
	}
	b, err := encodeResponse(resp)
	if err != nil {
		return nil
	}
	return b
}

// encodeResponse writes a response line as Marshal would, but places a
// result, already encoded compactly by answer, as it is: encoding/json
// would compact and check every byte of it a second time, the largest part
// of a trim's answer.
func encodeResponse(resp *protocol.Response) ([]byte, error) {
	if resp.Error != nil || len(resp.Result) == 0 || resp.JSONRPC != "2.0" {
		return Marshal(resp)
	}
	id, err := Marshal(resp.ID)
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}`)+len(id)+len(resp.Result))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, id...)
	b = append(b, `,"result":`...)
	b = append(b, resp.Result...)
	return append(b, '}'), nil
}
