#!/usr/bin/env python3
"""The convspec protocol adapter (spec/protocol.md) for convspec_window and
convspec_history, on convspec_kit (adapters/python), which owns the wire:
framing, JSON-RPC, handles, params, the scripted summarizer, exact numbers,
message identity and errors.

    python3 adapter.py
"""

import os
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ next to the sources
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "..", "adapters", "python")]  # or: pip install adapters/python

import convspec_kit as kit  # noqa: E402
from convspec_history import build_llm_messages, classify_conversation, prune_orphaned_prompts  # noqa: E402
from convspec_window import ConversationWindow, estimate_tokens, summarize  # noqa: E402

try:  # YAML 1.2: Debian's python3-ruamel.yaml, or pip install ruamel.yaml
    from convspec_config import resolve_config_file
except ImportError:
    resolve_config_file = None  # no config capability without it


def create(config, _summarizer):
    window = ConversationWindow(config)
    return {"window": window, "config": window.config, "warnings": window.warnings}


def trim(window, messages, s):
    return window.trim(messages) if s is None else window.trim(messages, s, s.timeout)


def prune(messages):
    kept, removed = prune_orphaned_prompts(messages)
    return {"messages": kept, "removed": removed}


if __name__ == "__main__":
    kit.run(
        name="convspec-example-python",
        version="0.1.0",
        window={"create": create, "trim": trim, "estimate": estimate_tokens,
                "summarize": lambda messages, s: summarize(messages, s, s.timeout)},
        history={"classify": classify_conversation, "prune": prune, "build": build_llm_messages},
        config={"resolve": resolve_config_file} if resolve_config_file else None,
    )
