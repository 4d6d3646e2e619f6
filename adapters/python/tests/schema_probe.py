"""Every group of convspec_kit, each handler answering a fixed value of the
shape the kit expects: what adapters/schema_test.go sends requests to, to
check what the kit reads and writes against the protocol's JSON Schema
(D-63). It implements nothing."""

import _paths  # noqa: F401 - puts the kit on sys.path
import convspec_kit as kit

CONFIG = {"max_messages": 1, "summarize_on_trim": False, "preserve_first_n": 0, "preserve_last_n": 0}
METRICS = {"totalMessages": 0, "preservedMessages": 0, "evictedMessages": 0, "estimatedTokens": 0}


class Conversation:
    config = CONFIG

    def start_iteration(self, _prompt):
        pass

    def request(self):
        return []

    def append(self, *_messages):
        pass

    def finish_iteration(self):
        return {"state": [], "metrics": {"messageCount": 0, "estimatedTokens": 0}, "events": []}


kit.run(
    name="schema-probe", version="0.0.0",
    window={"create": lambda _config, _s: {"window": {}, "config": CONFIG},
            "trim": lambda _w, m, _s: {"trimmed": m, "evicted": [], "metrics": METRICS},
            "estimate": lambda _m: 0, "summarize": lambda _m, _s: "summary"},
    history={"classify": lambda _m: {"classes": [], "units": []},
             "prune": lambda m: {"messages": m, "removed": []},
             "build": lambda m, _n: {"messages": m, "warnings": []}},
    budget={"count": lambda _m: {"tokens": 0, "per_message": []},
            "check": lambda _m, _model, _limits: {"tokens": 0, "limit": 1, "approaching": False, "at_limit": False},
            "prune": lambda m, _model, _limits, _ratio: {"messages": m, "removed": []},
            "compress": lambda m, _s: m,
            "prepare": lambda m, _model, _limits, _s: {"messages": m, "events": []}},
    tokens={"encode": lambda _text: []},
    config={"resolve": lambda _format, _text: {"config": CONFIG, "max_messages_from": "default", "warnings": []}},
    loop={"conversation": lambda _file, _initial, _s: Conversation()},
    trimmers=[{"name": "probe", "version": 2, "bound": "tokens", "counter": "native", "guarantees": ["subsequence"],
               "trim": lambda m, _limit: m, "native_count": lambda _m: 0}],
)
