package target_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/convspec/convspec/adapter"
	"github.com/convspec/convspec/conformance/protocol"
	"github.com/convspec/convspec/conformance/target"
)

// DecodeHandshake reads an initialize result by protocol v1's rules; what
// it declares decides which cases are run (an empty levels or formats
// member is refused; an absent one stands for all, D-42).
func ExampleDecodeHandshake() {
	info, err := target.DecodeHandshake(json.RawMessage(`{"protocol":1,"implementation":{"name":"my-trimmer","version":"1.2.0"},"capabilities":["window"],"levels":["core"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(info.Name, info.Capabilities, info.HasLevel("core"), info.HasLevel("validation"), info.HasFormat("anthropic"))
	// Output:
	// my-trimmer [window] true false true
}

// A restarted implementation, or another worker of conform -parallel N,
// must declare what the first handshake did, or the run is a protocol
// error (D-50).
func ExampleSameHandshake() {
	first := target.Info{Name: "my-trimmer", Version: "1.2.0", Capabilities: []string{"window", "window.summarize"}}
	now := first
	now.Capabilities = []string{"window"}
	fmt.Println(target.SameHandshake(first, first, "of worker 2"))
	fmt.Println(target.SameHandshake(first, now, "of worker 2") != nil)
	// Output:
	// <nil>
	// true
}

// Estimate sends window.estimate to any target and checks the result's
// shape; here an implementation served in process by the Go kit.
func ExampleEstimate() {
	tg, err := adapter.InProcess(adapter.Implementation{Name: "mylib", Version: "1.0.0", Impl: fourCharacters{}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tg.Close()
	n, err := target.Estimate(context.Background(), tg, []json.RawMessage{json.RawMessage(`{"role":"user","content":"12345678"}`)})
	fmt.Println(n, err)
	// Output:
	// 2 <nil>
}

// fourCharacters estimates a message at one token per four characters of
// its content, rounded up (EST-1), and has no windows.
type fourCharacters struct{}

func (fourCharacters) NewWindow(json.RawMessage) (adapter.Window, protocol.WindowConfig, []protocol.Warning, error) {
	return nil, protocol.WindowConfig{}, nil, adapter.Errorf("invalid_config", "no windows here")
}

func (fourCharacters) Estimate(messages []json.RawMessage) (int, error) {
	chars := 0
	for _, m := range messages {
		var msg struct{ Content string }
		if err := json.Unmarshal(m, &msg); err != nil {
			return 0, err
		}
		chars += len([]rune(msg.Content))
	}
	return (chars + 3) / 4, nil
}
