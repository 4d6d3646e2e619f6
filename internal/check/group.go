package check

import (
	"container/list"
	"slices"

	"github.com/convspec/convspec/reference/message"
)

// Bounds of what conform check keeps (D-58): memory grows with neither
// the number of requests nor the length of a conversation.
const (
	// DefaultMaxConversations is how many conversations are followed at
	// once; the one used least recently is forgotten first.
	DefaultMaxConversations = 10000
	// maxEvicted is how many evicted messages a conversation remembers
	// (ACC-13), the most recent ones.
	maxEvicted = 1024
	// maxShared: a message that more open conversations hold than this
	// (a common first prompt, "ok") identifies none of them.
	maxShared = 64
)

// conversation is one followed conversation: its previous request and
// the messages evicted from it.
type conversation struct {
	key     string // the -group-by value; "" when grouped by shared messages
	prev    *snapshot
	evicted map[uint64]struct{}
	order   []uint64 // evicted, oldest first
	elem    *list.Element
}

func (c *conversation) wasEvicted(h uint64) bool {
	_, ok := c.evicted[h]
	return ok
}

func (c *conversation) evict(hs []uint64) {
	if c.evicted == nil {
		c.evicted = map[uint64]struct{}{}
	}
	for _, h := range hs {
		if _, ok := c.evicted[h]; ok {
			continue
		}
		if len(c.order) == maxEvicted {
			delete(c.evicted, c.order[0])
			c.order = c.order[1:]
		}
		c.evicted[h] = struct{}{}
		c.order = append(c.order, h)
	}
}

// conversations follows the open conversations: by key, or by the
// messages their previous requests share with a new one.
type conversations struct {
	max   int
	lru   *list.List // *conversation, most recent first
	byKey map[string]*conversation
	// holders indexes the non-system messages of each conversation's
	// previous request (grouping by shared messages).
	holders map[uint64][]*conversation
}

func newConversations(max int) *conversations {
	if max <= 0 {
		max = DefaultMaxConversations
	}
	return &conversations{max: max, lru: list.New(), byKey: map[string]*conversation{}, holders: map[uint64][]*conversation{}}
}

// find returns the conversation a request belongs to, or nil for a new
// one. With a key, the conversation of that key; without, the one whose
// previous request shares the most non-system messages with it (the most
// recent on a tie).
func (cs *conversations) find(key string, keyed bool, r *request, hashes []uint64) *conversation {
	if keyed {
		return cs.byKey[key]
	}
	votes := map[*conversation]int{}
	seen := map[uint64]bool{}
	for i, h := range hashes {
		if seen[h] || r.messages[i].Class() == message.System {
			continue
		}
		seen[h] = true
		hs := cs.holders[h]
		if len(hs) > maxShared {
			continue
		}
		for _, c := range hs {
			votes[c]++
		}
	}
	var best *conversation
	for e := cs.lru.Front(); e != nil && len(votes) > 0; e = e.Next() {
		c := e.Value.(*conversation)
		if v, ok := votes[c]; ok {
			if best == nil || v > votes[best] {
				best = c
			}
			delete(votes, c)
		}
	}
	return best
}

// update makes s the previous request of c (a new conversation when c is
// nil) and returns c.
func (cs *conversations) update(c *conversation, key string, keyed bool, s *snapshot) *conversation {
	if c == nil {
		c = &conversation{key: key}
		c.elem = cs.lru.PushFront(c)
		if keyed {
			cs.byKey[key] = c
		}
		if cs.lru.Len() > cs.max {
			cs.forget(cs.lru.Back().Value.(*conversation))
		}
	} else {
		cs.lru.MoveToFront(c.elem)
	}
	if !keyed {
		cs.unindex(c)
	}
	c.prev = s
	if !keyed {
		for i, h := range s.hashes {
			// A list past maxShared is never read: it stops growing.
			if hs := cs.holders[h]; s.classes[i] != message.System && len(hs) <= maxShared && !slices.Contains(hs, c) {
				cs.holders[h] = append(cs.holders[h], c)
			}
		}
	}
	return c
}

func (cs *conversations) unindex(c *conversation) {
	if c.prev == nil {
		return
	}
	for _, h := range c.prev.hashes {
		hs := cs.holders[h]
		if i := slices.Index(hs, c); i >= 0 {
			hs[i] = hs[len(hs)-1]
			hs = hs[:len(hs)-1]
		}
		if len(hs) == 0 {
			delete(cs.holders, h)
		} else {
			cs.holders[h] = hs
		}
	}
}

func (cs *conversations) forget(c *conversation) {
	cs.unindex(c)
	cs.lru.Remove(c.elem)
	if c.key != "" {
		delete(cs.byKey, c.key)
	}
}
