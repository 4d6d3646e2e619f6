package target

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/convspec/convspec/internal/jsonscan"
	"github.com/convspec/convspec/internal/membercheck"
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
//
// A member of the wrong JSON type is checked first and returned as a
// *MemberError naming the member and the rule (a deviation the
// harness reports as a failure, not a broken transport).
func DecodeResult(method string, raw json.RawMessage, v any) error {
	// Most results are valid: the member check and the JSON Schema both
	// first judge raw as written, without the tree, which would hold every
	// message of the result though neither looks into one (D-89). Each
	// says true only where its check of the tree passes
	// (FuzzDecodeResultAsBefore); on false, the tree is built and checked
	// as before, to name what is wrong in the same words.
	if jsonscan.Valid(raw) && membercheck.Passes(raw, v) && schema.ResultPasses(method, raw) {
		return decodeValid(raw, v)
	}
	// Decoded once for the member check and the JSON Schema both.
	tree, err := membercheck.DecodeValue(raw)
	if err != nil {
		return fmt.Errorf("%w: result is not JSON: %v", ErrSchema, err)
	}
	if err := membercheck.CheckValue(tree, v); err != nil {
		var me *MemberError
		if errors.As(err, &me) && me.Got != "nothing" && me.Path != "result" {
			return err
		}
	}
	if err := schema.ResultValue(method, tree); err != nil {
		if errors.Is(err, schema.ErrNoSchema) {
			return err
		}
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	return decodeValid(raw, v)
}

// decodeValid decodes raw, a result that passed the member check and the
// JSON Schema, into v.
func decodeValid(raw json.RawMessage, v any) error {
	// raw was checked as JSON (jsonscan.Valid, or json.Valid): its members
	// are read in place, the messages of a result copied once, without a
	// second check and a third scan by encoding/json. A result with a
	// member jsonscan.Fields does not read is decoded again, from the zero
	// value, by json.Unmarshal, which reads raw in place too (a Decoder
	// would first copy all of it into a buffer of its own).
	if members, ok := jsonscan.SplitObject(raw); ok && jsonscan.Fields(members, v) {
		return nil
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv.Elem().SetZero() // as Fields asks: it may have read some members
	}
	if err := json.Unmarshal(raw, v); err != nil {
		// 3.0 and 3e0 are the integer 3 (the member check let them through),
		// which encoding/json cannot put in an int: decode them as 3.
		if plain, ok := membercheck.IntegralNumbers(raw); ok && json.Unmarshal(plain, v) == nil {
			return nil
		}
		return fmt.Errorf("%w: %v", ErrSchema, err)
	}
	return nil
}

// MemberError is a member of a result that breaks the protocol's rule for
// it ("config.max_messages: want a non-negative integer, got 2.5"): what
// DecodeResult returns for a member of the wrong JSON type, which a case
// reports as a failure, not as a broken transport.
type MemberError = membercheck.MemberError
