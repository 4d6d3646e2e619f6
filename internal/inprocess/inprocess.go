// Package inprocess serves the built-in reference (or a faulty variant)
// to the suite without a process, as a target.Target. It lives apart from
// the seam so that package target does not import the reference.
package inprocess

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
	"github.com/convspec/convspec/internal/paramsjson"
	"github.com/convspec/convspec/internal/server"
)

// Target serves a server.Responder without a process. Params and results
// still travel as JSON, so it decodes exactly what the wire would carry.
type Target struct {
	handler server.Responder
	info    target.Info
}

// New handshakes with engine in-process.
func New(engine server.Engine) (*Target, error) {
	return Serve(server.NewHandler(engine))
}

// Serve handshakes in-process with any responder (the Go adapter kit's).
func Serve(handler server.Responder) (*Target, error) {
	t := &Target{handler: handler}
	raw, err := t.Call(context.Background(), protocol.MethodInitialize, protocol.InitializeParams{Protocol: protocol.Version, Suite: "convspec"})
	if err != nil {
		return nil, err
	}
	info, err := target.DecodeHandshake(raw)
	if err != nil {
		return nil, err
	}
	t.info = info
	return t, nil
}

// Oracle serves engine without a handshake, for a caller that only sends
// it requests and never reads its Info (empty here): the differential
// properties start a fresh reference for every sequence, so that its
// handles and pending lists start from nothing, and a handshake each time
// was a twentieth of their cost.
func Oracle(engine server.Engine) *Target {
	return &Target{handler: server.NewHandler(engine)}
}

// Info implements target.Target.
func (t *Target) Info() target.Info { return t.info }

// Call implements target.Target.
func (t *Target) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	p, err := paramsjson.Marshal(params) // json.Marshal's bytes (D-92)
	if err != nil {
		return nil, fmt.Errorf("encoding params of %s: %w", method, err)
	}
	res, err := t.handler.Handle(ctx, method, p)
	if err != nil {
		return nil, err
	}
	out, err := server.EncodeResult(t.handler, res) // the wire's bytes
	if err != nil {
		return nil, &target.Failure{Outcome: target.ProtocolError, Method: method, Detail: "result cannot be encoded: " + err.Error()}
	}
	return out, nil
}

// Close implements target.Target.
func (t *Target) Close() error { return nil }

// SendLine implements target.LineSender.
func (t *Target) SendLine(ctx context.Context, line []byte) ([]byte, error) {
	return server.AnswerLine(ctx, t.handler, line), nil
}
