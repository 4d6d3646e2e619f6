package server

import (
	"strconv"
	"sync"

	"github.com/convspec/convspec/conformance/protocol"
)

// Handles are the windows a connection has created, by the handle
// window.create answered and window.trim names ("w1", "w2", …, never
// reused). The reference's Handler and the Go kit's dispatcher keep their
// windows, of different types, in one. The zero value is empty; it is safe
// for concurrent use.
type Handles[W any] struct {
	mu      sync.Mutex
	windows map[string]W
}

// Add keeps w and returns its new handle.
func (h *Handles[W]) Add(w W) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.windows == nil {
		h.windows = map[string]W{}
	}
	id := "w" + strconv.Itoa(len(h.windows)+1)
	h.windows[id] = w
	return id
}

// Get is the window of handle id, or invalid_params when no window has it.
func (h *Handles[W]) Get(id string) (W, error) {
	h.mu.Lock()
	w, ok := h.windows[id]
	h.mu.Unlock()
	if !ok {
		var none W
		return none, protocol.NewError(protocol.KindInvalidParams, "params.window: no window %q (create one with %s)", id, protocol.MethodWindowCreate)
	}
	return w, nil
}
