package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/convspec/convspec/spec/schema"
)

// ErrSchema is wrapped by DecodeResult when a result breaks the protocol's
// shapes: the implementation answered, but not in protocol v1.
var ErrSchema = errors.New("result does not match protocol v1")

// DecodeResult checks raw, the result of method, against the protocol's
// published schema (spec/schema/protocol.schema.json: every member
// spec/protocol.md marks as present, nested shapes included, with its
// type) and decodes it into v, a pointer to the method's result type in
// package protocol. A method the schema does not know is an error of the
// suite, not of the implementation: it never passes unchecked.
func DecodeResult(method string, raw json.RawMessage, v any) error {
	if err := schema.Result(method, raw); err != nil {
		if errors.Is(err, schema.ErrNoSchema) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	if err := json.NewDecoder(bytes.NewReader(raw)).Decode(v); err != nil {
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	return nil
}
