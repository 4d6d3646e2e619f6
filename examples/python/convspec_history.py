"""Stored conversation history, as specified by convspec.

spec/SPEC.md, capability ``history``: the class of every message and the
tool-call units of a conversation (CLS-1, UNIT-1), pruning user prompts that
never got a reply (PRUNE-1 – PRUNE-4), and building the messages for a model
call (BUILD-1 – BUILD-5): repair broken tool structures, prune, then keep the
system prompt and the latest complete exchanges.

Standard library only; messages are never copied or rewritten (MSG-2, MSG-3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from convspec_window import (
    ASSISTANT_TEXT,
    SYSTEM,
    TOOL_CALL,
    USER_PROMPT,
    _as_count,
    _classify_valid,
    analyze_structure,
    unit_starts,
    validate_messages,
)

__all__ = [
    "Classified",
    "Repair",
    "BuildResult",
    "classify_conversation",
    "prune_orphaned_prompts",
    "build_llm_messages",
    "parse_max_messages",
]


@dataclass(frozen=True)
class Classified:
    """Every message's class, and the units as half-open ranges ``(start, end)``."""

    classes: list[str]
    units: list[tuple[int, int]]


def _units(starts: list[int]) -> list[tuple[int, int]]:
    bounds = [i for i, s in enumerate(starts) if s == i] + [len(starts)]
    return list(zip(bounds, bounds[1:]))


def classify_conversation(messages: Sequence[Any]) -> Classified:
    """Classes and units of a conversation (CLS-1, UNIT-1). Raises
    InvalidMessageError for an invalid message or a broken tool structure,
    naming it (CLS-2, UNIT-2)."""
    starts = unit_starts(messages)
    return Classified([_classify_valid(m).cls for m in messages], _units(starts))


def _orphaned(classes: Sequence[str]) -> list[int]:
    """The positions of the user prompts PRUNE-1 removes: every prompt of a run
    but its last, runs being ended only by assistant messages (PRUNE-2)."""
    removed: list[int] = []
    last_prompt: int | None = None  # the latest prompt of the current run
    for i, cls in enumerate(classes):
        if cls == USER_PROMPT:
            if last_prompt is not None:
                removed.append(last_prompt)
            last_prompt = i
        elif cls in (ASSISTANT_TEXT, TOOL_CALL):
            last_prompt = None
    return removed


def prune_orphaned_prompts(messages: Sequence[Any]) -> tuple[list, list[int]]:
    """``pruneOrphanedUserMessages``: the messages without the orphaned user
    prompts, and the input positions removed, ascending (PRUNE-1 – PRUNE-3).
    Does not look at tool structure."""
    validate_messages(messages)
    removed = _orphaned([_classify_valid(m).cls for m in messages])
    gone = set(removed)
    return [m for i, m in enumerate(messages) if i not in gone], removed


@dataclass(frozen=True)
class Repair:
    """A broken tool structure that building dropped (BUILD-2)."""

    code: str
    message: str
    indexes: list[int]

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message, "indexes": self.indexes}


@dataclass(frozen=True)
class BuildResult:
    messages: list
    warnings: list[Repair]

    def to_json(self) -> dict:
        return {"messages": self.messages, "warnings": [w.to_json() for w in self.warnings]}


def parse_max_messages(value: Any) -> int:
    """``max_messages`` as a count (CFG-3); ValueError otherwise."""
    count = _as_count(value)
    if count is None:
        raise ValueError("must be a non-negative integer")
    return count


def build_llm_messages(messages: Sequence[Any], max_messages: int) -> BuildResult:
    """``buildLLMMessages``: repair, then prune, then window (BUILD-1).

    Raises InvalidMessageError for an invalid message (MSG-1, CLS-2); broken
    tool structures are not errors here, they are dropped (BUILD-2).
    """
    if isinstance(max_messages, bool) or not isinstance(max_messages, int) or max_messages < 0:
        raise ValueError("max_messages must be a non-negative integer")
    structure = analyze_structure(messages)

    # BUILD-2: drop every message of each broken structure, one warning each.
    dropped: set[int] = set()
    repairs = []
    for b in structure.broken:
        dropped.update(b.indexes)
        repairs.append(Repair(b.code, f"dropped {_positions(b.indexes)}: {b.describe()}", list(b.indexes)))
    repaired = [m for i, m in enumerate(messages) if i not in dropped]

    # PRUNE-1.
    classes = [_classify_valid(m).cls for m in repaired]
    gone = set(_orphaned(classes))
    kept = [i for i in range(len(repaired)) if i not in gone]
    pruned = [repaired[i] for i in kept]
    classes = [classes[i] for i in kept]

    # BUILD-3: the leading system messages, then a suffix of the rest.
    lead = 0
    while lead < len(pruned) and classes[lead] == SYSTEM:
        lead += 1
    rest = pruned[lead:]
    r = len(rest)
    if max_messages == 0 or r <= max_messages:
        return BuildResult(pruned, repairs)
    starts = unit_starts(rest)  # well-formed once repaired
    unit_heads = [i for i in range(r) if starts[i] == i]
    fits = [i for i in unit_heads if r - i <= max_messages]
    prompts = [i for i in fits if classes[lead + i] == USER_PROMPT]
    if prompts:
        begin = prompts[0]  # a complete exchange
    elif fits:
        begin = fits[0]
    else:
        begin = unit_heads[-1]  # the last unit alone is longer (BUILD-4)
    return BuildResult(pruned[:lead] + rest[begin:], repairs)


def _positions(indexes: Sequence[int]) -> str:
    return ("messages " if len(indexes) > 1 else "message ") + ", ".join(map(str, indexes))
