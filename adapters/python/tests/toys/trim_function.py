"""A toy library of the second shape the kit must fit: pure functions that
take the system prompt as a separate argument and return rebuilt message
objects (new dicts, never the ones given). It borrows its trimming from the
Python example (this is a test of the kit's fit, not of trimming)."""

from convspec_history import build_llm_messages, classify_conversation, prune_orphaned_prompts
from convspec_window import ConversationWindow, estimate_tokens


def _rebuild(messages):
    return [dict(m) for m in messages]


def check_options(options):
    """The options with their defaults, and warnings about them (raises for a bad one)."""
    w = ConversationWindow(options)
    return w.config, [x.to_json() for x in w.warnings]


def trim_conversation(system, messages, options):
    everything = list(messages) if system is None else [{"role": "system", "content": system}, *messages]
    r = ConversationWindow(options).trim(everything)
    return {"messages": _rebuild(r.trimmed), "removed": _rebuild(r.evicted), "stats": r.metrics.to_json(),
            "warnings": [w.to_json() for w in r.warnings]}


estimate = estimate_tokens


def classify(messages):
    c = classify_conversation(messages)
    return c.classes, c.units


def without_orphans(messages):
    """The prompts that got no reply, left out; and where they were."""
    kept, at = prune_orphaned_prompts(messages)
    return _rebuild(kept), at


def build(messages, max_messages):
    r = build_llm_messages(messages, max_messages)
    return _rebuild(r.messages), [w.to_json() for w in r.warnings]
