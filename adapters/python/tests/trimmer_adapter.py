"""A toy trimmer on convspec_kit, declared honestly: core level, OpenAI
messages, capability trimmer with two trimmers (by messages, by chars4
tokens). It keeps the leading system messages, then whole units from the
end while they fit; when even the system messages and the last unit do not
fit, exactly those (ANY-6's floor)."""

import _paths  # noqa: F401 - puts the kit on sys.path
import convspec_kit as kit


def units(messages):
    """The units (UNIT-1) of valid OpenAI messages, as (start, end) ranges."""
    out, i = [], 0
    while i < len(messages):
        end = i + 1
        if messages[i]["role"] == "assistant" and messages[i].get("tool_calls"):
            while end < len(messages) and messages[end]["role"] == "tool":
                end += 1
        out.append((i, end))
        i = end
    return out


def keep_last(messages, limit, count):
    if count(messages) <= limit:
        return messages
    head = 0
    while head < len(messages) and messages[head]["role"] in ("system", "developer"):
        head += 1
    system, us = messages[:head], [(s + head, e + head) for s, e in units(messages[head:])]
    start = us[-1][0] if us else len(messages)  # the last unit, always kept
    for s, _ in reversed(us[:-1]):
        if count(system + messages[s:]) > limit:
            break
        start = s
    return system + messages[start:]


GUARANTEES = ["subsequence", "units", "system", "last_unit", "bound", "fits", "idempotent", "total"]
kit.run(
    name="toy-trimmer", version="0.0.0", levels=["core"], formats=["openai"],
    trimmers=[
        {"name": "last-messages", "bound": "messages", "formats": ["openai"], "guarantees": GUARANTEES,
         "trim": lambda m, limit: keep_last(m, limit, len)},
        {"name": "last-chars4", "bound": "tokens", "counter": "chars4", "formats": ["openai"], "guarantees": GUARANTEES,
         "trim": lambda m, limit: keep_last(m, limit, kit.count_chars4)},
    ],
)
