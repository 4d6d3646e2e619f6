package target

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/convspec/convspec/conformance/protocol"
)

// clipLine is line as readLines holds it: fed to an errorClipper in chunks
// of size bytes.
func clipLine(line []byte, size int) []byte {
	c := newErrorClipper(MaxErrorTextBytes)
	if len(line) == 0 {
		return c.flush(nil)
	}
	var out []byte
	for first := true; len(line) > 0; first = false {
		n := min(size, len(line))
		out = c.piece(out, line[:n], first, n == len(line))
		line = line[n:]
	}
	return out
}

// sameDecoding fails unless decodeResponse reads clipped as it reads line:
// the same result, the same error response, or a protocol error for both.
func sameDecoding(t *testing.T, line, clipped []byte) {
	t.Helper()
	if json.Valid(line) != json.Valid(clipped) {
		t.Fatalf("valid JSON %v, clipped %v:\n%q\n%q", json.Valid(line), json.Valid(clipped), line, clipped)
	}
	res1, err1 := decodeResponse("window.estimate", line, 1)
	res2, err2 := decodeResponse("window.estimate", clipped, 1)
	if !bytes.Equal(res1, res2) {
		t.Fatalf("result %s, clipped %s", res1, res2)
	}
	var pe1, pe2 *protocol.Error
	var f1, f2 *Failure
	switch {
	case errors.As(err1, &pe1):
		if !errors.As(err2, &pe2) || !reflect.DeepEqual(pe1, pe2) {
			t.Fatalf("error %#v, clipped %#v", err1, err2)
		}
	case errors.As(err1, &f1):
		if !errors.As(err2, &f2) || f1.Outcome != f2.Outcome {
			t.Fatalf("failure %v, clipped %v", err1, err2)
		}
	case err1 != nil || err2 != nil:
		t.Fatalf("error %v, clipped %v", err1, err2)
	}
}

// clipLines are answers whose error strings are long, or which only look
// as if they were: each must decode the same clipped as whole.
func clipLines() map[string]string {
	long := strings.Repeat("x", 3*MaxErrorTextBytes)
	cut := strings.Repeat("y", clipRoom(MaxErrorTextBytes)-3) // an escape or a character across the cut
	return map[string]string{
		"long message":        `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long + `","data":{"kind":"invalid_params","traceback":"` + long + `"}}}`,
		"short message":       `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"short","data":{"kind":"invalid_params"}}}`,
		"escape across cut":   `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + cut + `\u00e9\"\\` + long + `","data":{"kind":"invalid_params"}}}`,
		"rune across cut":     `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + cut + `é😀` + long + `","data":{"kind":"invalid_params"}}}`,
		"exactly the limit":   `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long[:MaxErrorTextBytes] + `","data":{"kind":"invalid_params"}}}`,
		"one over the limit":  `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long[:MaxErrorTextBytes+1] + `","data":{"kind":"invalid_params"}}}`,
		"error first":         `{"error":{"message":"` + long + `","code":-32602,"data":{"kind":"invalid_params"}},"id":1,"jsonrpc":"2.0"}`,
		"error a string":      `{"jsonrpc":"2.0","id":1,"error":"` + long + `"}`,
		"result long":         `{"jsonrpc":"2.0","id":1,"result":{"tokens":1,"error":"` + long + `","x":["` + long + `",{"error":"` + long + `"}]}}`,
		"both":                `{"jsonrpc":"2.0","id":1,"result":{"tokens":1},"error":{"code":-32602,"message":"` + long + `"}}`,
		"escaped name":        `{"jsonrpc":"2.0","id":1,"\u0065rror":{"code":-32602,"message":"` + long + `","data":{"kind":"invalid_params"}}}`,
		"control dropped":     `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long + "\x01" + `x","data":{"kind":"invalid_params"}}}`,
		"bad escape dropped":  `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long + `\q","data":{"kind":"invalid_params"}}}`,
		"bad \\u dropped":     `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long + `\u12"x","data":{"kind":"invalid_params"}}}`,
		"control kept":        `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"a` + "\x01" + long + `","data":{"kind":"invalid_params"}}}`,
		"unterminated":        `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long,
		"array":               `[{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long + `"}}]`,
		"nested error object": `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"m","data":{"kind":"invalid_params","x":[{"a":"` + long + `"}]}}}`,
		"not JSON":            `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + long + `"}}}}`,
	}
}

// TestErrorClipperDecodesAsWhole: a line clipped while it is read decodes
// as decodeResponse decodes it whole, fed in chunks of any size (D-52).
func TestErrorClipperDecodesAsWhole(t *testing.T) {
	for name, line := range clipLines() {
		for _, size := range []int{1, 7, 4096, 64 << 10} {
			clipped := clipLine([]byte(line), size)
			sameDecoding(t, []byte(line), clipped)
			switch {
			case name == "result long" && string(clipped) != line:
				t.Errorf("%s: a result changed", name)
			case name == "long message" && len(clipped) > 3*MaxErrorTextBytes:
				t.Errorf("%s: %d bytes held of %d", name, len(clipped), len(line))
			}
		}
	}
}

// TestErrorClipperBounds: an error response of 32 MiB is held in a few KiB.
func TestErrorClipperBounds(t *testing.T) {
	big := strings.Repeat("x", 32<<20)
	line := `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"` + big + `","data":{"kind":"invalid_params"}}}` + "\n"
	clipped := clipLine([]byte(line), 64<<10)
	if len(clipped) > 2*MaxErrorTextBytes {
		t.Fatalf("the clipped line has %d bytes", len(clipped))
	}
	_, err := decodeResponse("window.estimate", bytes.TrimSpace(clipped), 1)
	var pe *protocol.Error
	if !errors.As(err, &pe) || !strings.Contains(pe.Message, "clipped: 33554432 bytes in all") {
		t.Fatalf("decoded as %v", err)
	}
}

// FuzzErrorClipper: whatever the line and the chunks, the clipped line
// decodes as the whole one does.
func FuzzErrorClipper(f *testing.F) {
	for _, line := range clipLines() {
		f.Add(line, 7)
	}
	f.Fuzz(func(t *testing.T, line string, size int) {
		size = 1 + int(uint(size)%5000)
		sameDecoding(t, []byte(line), clipLine([]byte(line), size))
	})
}
