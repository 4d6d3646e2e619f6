"""A sliding-window conversation history, as specified by convspec.

spec/SPEC.md, capability ``window``: a ConversationWindow keeps a preserved
head and tail of a conversation and the most recent messages between them,
never splitting a tool call from its results (WIN-9, UNIT-3), and estimates
tokens at four characters a token.

Standard library only. Messages are the values ``loads`` builds (dicts, lists,
str, bool, None and JSONNumber); they are never copied or rewritten, so a trim
returns the very objects it was given (MSG-2, MSG-3). Plain ``int`` and
``float`` are accepted too, for callers that build messages in Python.

Characters are counted as ECMAScript does (UTF-16 code units) and non-string
content is measured in the form ECMAScript's ``JSON.stringify`` writes
(EST-2, EST-3), which ``js_stringify`` reproduces.
"""

from __future__ import annotations

import json
import json.scanner
import math
import re
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

__all__ = [
    "ConversationWindow",
    "ConversationMetrics",
    "TrimResult",
    "WindowWarning",
    "ConvspecError",
    "InvalidConfigError",
    "InvalidMessageError",
    "JSONNumber",
    "DEFAULTS",
    "PRESERVE_EXCEEDS_MAX",
    "loads",
    "dumps",
    "resolve_config",
    "validate_messages",
    "classify",
    "unit_starts",
    "analyze_structure",
    "Structure",
    "BrokenStructure",
    "Classification",
    "estimate_tokens",
    "js_stringify",
    "number_to_js_string",
    "utf16_length",
    "Summarizer",
    "SummarizerError",
    "call_summarizer",
    "summarize",
    "summary_prompt",
    "render_message",
    "SUMMARY_INSTRUCTION",
    "SUMMARY_MAX_TOKENS",
]

PRESERVE_EXCEEDS_MAX = "preserve_exceeds_max"

DEFAULTS = {
    "max_messages": 100,
    "summarize_on_trim": False,
    "preserve_first_n": 1,
    "preserve_last_n": 20,
}

_COUNT_MEMBERS = ("max_messages", "preserve_first_n", "preserve_last_n")
_MAX_COUNT = 2**53 - 1


# --------------------------------------------------------------------------
# Errors


class ConvspecError(Exception):
    """An operation refused its input; ``kind`` is the protocol's error kind."""

    kind = "internal_error"


class InvalidConfigError(ConvspecError):
    """A configuration breaks CFG-3 or CFG-4."""

    kind = "invalid_config"


class InvalidMessageError(ConvspecError):
    """A message breaks MSG-1."""

    kind = "invalid_message"


# --------------------------------------------------------------------------
# JSON text in and out


class JSONNumber:
    """A JSON number as received: its text, and its value as a double.

    ``json.loads`` would turn ``1e400`` into ``inf`` (which ``json.dumps``
    writes as the non-JSON ``Infinity``) and refuses integers of more than
    4300 digits; keeping the text lets a message go back exactly as it came.
    """

    __slots__ = ("text", "value")

    def __init__(self, text: str) -> None:
        if not text.isascii():  # the pure-Python scanner's number pattern accepts any Unicode digit
            raise ValueError(f"{text!r} is not a JSON number")
        self.text = text
        self.value = float(text)  # ±inf when too large for a double

    def __float__(self) -> float:
        return self.value

    def __repr__(self) -> str:
        return f"JSONNumber({self.text!r})"


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_float=JSONNumber, parse_int=JSONNumber, parse_constant=_reject_constant)

# The same decoder with the pure-Python scanner, which recurses on Python
# frames (bounded by sys.setrecursionlimit) where the C scanner recurses on
# C (bounded, since Python 3.12, by a fixed limit of its own).
_DEEP_DECODER = json.JSONDecoder(parse_float=JSONNumber, parse_int=JSONNumber, parse_constant=_reject_constant)
_DEEP_DECODER.scan_once = json.scanner.py_make_scanner(_DEEP_DECODER)  # type: ignore[attr-defined]


def loads(text: str) -> Any:
    """Parses strict JSON (no NaN/Infinity), keeping numbers as JSONNumber.

    Like ``JSON.parse``, a member name given twice makes one member, at its
    first place, with its last value. Unpaired surrogate escapes are kept in
    the strings; ``validate_messages`` rejects them.
    """
    try:
        return _DECODER.decode(text)
    except RecursionError:
        return _DEEP_DECODER.decode(text)


def _write_json(value: Any, number: Callable[[Any], str], quote: Callable[[str], str]) -> str:
    """Writes a JSON value compactly, without recursion (content may be nested
    deeper than Python's call stack allows); ``number`` writes numbers and
    ``quote`` strings and member names."""
    out: list[str] = []
    # Each frame: [items, names or None, next index].
    stack: list[list[Any]] = []

    def open_(v: Any) -> None:
        if isinstance(v, str):
            out.append(quote(v))
        elif v is None:
            out.append("null")
        elif v is True:
            out.append("true")
        elif v is False:
            out.append("false")
        elif isinstance(v, (JSONNumber, int, float)):
            out.append(number(v))
        elif isinstance(v, dict):
            out.append("{")
            stack.append([list(v.values()), list(v.keys()), 0])
        elif isinstance(v, (list, tuple)):
            out.append("[")
            stack.append([v, None, 0])
        else:
            raise TypeError(f"not a JSON value: {type(v).__name__}")

    open_(value)
    while stack:
        top = stack[-1]
        items, names, i = top
        if i == len(items):
            out.append("]" if names is None else "}")
            stack.pop()
            continue
        top[2] = i + 1
        if i > 0:
            out.append(",")
        if names is not None:
            out.append(quote(names[i]) + ":")
        open_(items[i])
    return "".join(out)


def _wire_number(value: Any) -> str:
    if isinstance(value, JSONNumber):
        return value.text
    if isinstance(value, int):
        return str(value)
    if math.isfinite(value):
        return repr(value)
    return "1e400" if value > 0 else "-1e400"  # the same double value as ±inf


def dumps(value: Any) -> str:
    """Writes compact JSON, ASCII only; a JSONNumber is written as received."""
    return _write_json(value, _wire_number, json.dumps)


# --------------------------------------------------------------------------
# ECMAScript's view of strings and numbers (EST-2, EST-3)


def utf16_length(s: str) -> int:
    """The length of ``s`` in UTF-16 code units (ECMAScript's ``.length``)."""
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def number_to_js_string(x: float) -> str:
    """ECMAScript's Number::toString(x) for a double.

    Python's ``repr`` already chooses the shortest digits that round-trip
    (the digits ECMAScript chooses); only the layout differs.
    """
    if x != x:
        return "NaN"
    if x == 0:
        return "0"  # -0 included
    if x < 0:
        return "-" + number_to_js_string(-x)
    if math.isinf(x):
        return "Infinity"
    mantissa, _, exponent = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    n = len(whole) + (int(exponent) if exponent else 0)  # value = 0.digits × 10^n
    significant = digits.lstrip("0")
    n -= len(digits) - len(significant)
    digits = significant.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    if k == 1:
        return f"{digits}e{sign}{abs(e)}"
    return f"{digits[0]}.{digits[1:]}e{sign}{abs(e)}"


_JS_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
_JS_NEEDS_ESCAPE = re.compile('["\\\\\x00-\x1f]')


def _js_escape(match: re.Match[str]) -> str:
    c = match.group()
    return _JS_ESCAPES.get(c) or "\\u%04x" % ord(c)


def _js_quote(s: str) -> str:
    return '"' + _JS_NEEDS_ESCAPE.sub(_js_escape, s) + '"'


def _js_number(value: Any) -> str:
    try:
        x = float(value)
    except OverflowError:  # a Python int beyond the doubles
        x = math.inf
    return number_to_js_string(x) if math.isfinite(x) else "null"


def js_stringify(value: Any) -> str:
    """What ECMAScript's ``JSON.stringify`` writes for the parsed value (EST-3)."""
    return _write_json(value, _js_number, _js_quote)


# --------------------------------------------------------------------------
# Messages (MSG-1)

_SURROGATE = re.compile("[\ud800-\udfff]")


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (JSONNumber, int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _well_formed(value: Any) -> bool:
    """Whether every string in a JSON value, member names included, is well-formed Unicode.

    A surrogate code point in a Python string is either an escape of an
    unpaired surrogate (paired escapes are combined by the parser) or a byte
    that was not UTF-8 (decoded with ``surrogateescape``).
    """
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if _SURROGATE.search(v):
                return False
        elif isinstance(v, dict):
            for k, item in v.items():
                if _SURROGATE.search(k):
                    return False
                stack.append(item)
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return True


def _message_problem(m: Any) -> str | None:
    if not isinstance(m, dict):
        return f"must be an object, got {_type_name(m)}"
    if "role" not in m:
        return '"role" is missing'
    role = m["role"]
    if not isinstance(role, str):
        return f'"role" must be a non-empty string, got {_type_name(role)}'
    if role == "":
        return '"role" must be a non-empty string, got an empty string'
    if not _well_formed(m):
        return "contains a string that is not well-formed Unicode (an unpaired surrogate or bytes that are not UTF-8)"
    try:
        _classify_valid(m)
    except _ToolMemberError as e:
        return str(e)
    return None


def validate_messages(messages: Sequence[Any]) -> None:
    """Raises InvalidMessageError naming the first element that is not a message
    (MSG-1) or whose tool members cannot be read (CLS-2)."""
    for i, m in enumerate(messages):
        problem = _message_problem(m)
        if problem is not None:
            raise InvalidMessageError(f"messages[{i}]: {problem}")


# --------------------------------------------------------------------------
# Classes and tool-call units (CLS-1, CLS-2, UNIT-1, UNIT-2)

SYSTEM = "system"
TOOL_CALL = "tool_call"
ASSISTANT_TEXT = "assistant_text"
TOOL_RESULT = "tool_result"
USER_PROMPT = "user_prompt"
OTHER = "other"


@dataclass(frozen=True)
class Classification:
    """A message's class and, for calls and results, the ids it declares or answers."""

    cls: str
    ids: tuple[str, ...] = ()


class _ToolMemberError(Exception):
    """A message's tool members cannot be read (CLS-2)."""


def _is_id(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _blocks(content: Any, block_type: str) -> list[tuple[int, dict]]:
    """The blocks of a content array with the given ``type``, with their positions."""
    if not isinstance(content, list):
        return []
    return [(j, b) for j, b in enumerate(content) if isinstance(b, dict) and b.get("type") == block_type]


def _classify_valid(m: dict) -> Classification:
    role = m["role"]
    if role in ("system", "developer"):
        return Classification(SYSTEM)
    if role == "assistant":
        ids: list[str] = []
        if m.get("tool_calls") is not None:  # null is the member absent (D-38)
            calls = m["tool_calls"]
            if not isinstance(calls, list):
                raise _ToolMemberError(f'"tool_calls" must be an array of objects, got {_type_name(calls)}')
            for j, call in enumerate(calls):
                if not isinstance(call, dict):
                    raise _ToolMemberError(f"tool_calls[{j}] must be an object, got {_type_name(call)}")
                if not _is_id(call.get("id")):
                    raise _ToolMemberError(f"tool_calls[{j}].id must be a non-empty string")
                ids.append(call["id"])
        for j, block in _blocks(m.get("content"), "tool_use"):
            if not _is_id(block.get("id")):
                raise _ToolMemberError(f"content[{j}] (tool_use).id must be a non-empty string")
            ids.append(block["id"])
        return Classification(TOOL_CALL, tuple(ids)) if ids else Classification(ASSISTANT_TEXT)
    if role == "tool":
        if not _is_id(m.get("tool_call_id")):
            raise _ToolMemberError('"tool_call_id" must be a non-empty string')
        return Classification(TOOL_RESULT, (m["tool_call_id"],))
    if role == "user":
        results = _blocks(m.get("content"), "tool_result")
        if not results:
            return Classification(USER_PROMPT)
        for j, block in results:
            if not _is_id(block.get("tool_use_id")):
                raise _ToolMemberError(f"content[{j}] (tool_result).tool_use_id must be a non-empty string")
        return Classification(TOOL_RESULT, tuple(b["tool_use_id"] for _, b in results))
    return Classification(OTHER)


# White space is Unicode's White_Space property (spec section 6a, D-31), not
# str.strip's idea of it, which also removes U+001C-U+001F.
_WHITE_SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(chr(c) for c in range(0x2000, 0x200B)) + "\u2028\u2029\u202f\u205f\u3000"


def strip_white_space(s: str) -> str:
    """s without leading and trailing white space (D-31)."""
    return s.strip(_WHITE_SPACE)


def classify(message: Any) -> Classification:
    """The class of a message (CLS-1); raises InvalidMessageError if it is not a valid message."""
    validate_messages([message])
    return _classify_valid(message)


@dataclass(frozen=True)
class BrokenStructure:
    """A malformed tool structure (UNIT-2): its code, every message it is
    made of (``indexes``, ascending) and a description for people."""

    code: str
    indexes: tuple[int, ...]
    detail: str
    at: int = -1  # the message to name, when it is not the first (a stranger's result)

    @property
    def index(self) -> int:
        """The message the structure is named by: the call, or the orphaned result."""
        return self.at if self.at >= 0 else self.indexes[0]

    def describe(self) -> str:
        return f"messages[{self.index}]: {self.code}: {self.detail}"


@dataclass(frozen=True)
class Structure:
    """The tool structure of a conversation: for every message the index where
    its unit starts (UNIT-1), and the malformed structures (UNIT-2), ordered
    by the message that names them."""

    starts: list[int]
    broken: list[BrokenStructure]


class _Call:
    """A tool call and the results read so far that directly follow it."""

    def __init__(self, index: int, ids: tuple[str, ...], code: str | None, detail: str) -> None:
        self.index = index
        self.ids = ids
        self.results: list[int] = []
        self.answered: set[str] = set()
        self.code = code  # the first defect found, if any
        self.detail = detail

    def defect(self, code: str, detail: str) -> None:
        if self.code is None:
            self.code, self.detail = code, detail

    def close(self) -> BrokenStructure | None:
        missing = [i for i in dict.fromkeys(self.ids) if i not in self.answered]
        if missing:
            self.defect("unanswered_tool_call", "no result for " + ", ".join(map(json.dumps, missing)))
        if self.code is None:
            return None
        return BrokenStructure(self.code, (self.index, *self.results), self.detail)


def analyze_structure(messages: Sequence[Any]) -> Structure:
    """Reads the tool structure of a conversation (UNIT-1, UNIT-2).

    A structure is malformed as a whole: a call with a defect (one of its ids
    declared before, or declared twice, answered twice, or left unanswered) is
    broken together with the results that directly follow it; a result that
    does not answer the call it directly follows is broken alone. Raises
    InvalidMessageError for an invalid message (MSG-1, CLS-2).
    """
    validate_messages(messages)
    starts: list[int] = []
    broken: list[BrokenStructure] = []
    declared: set[str] = set()
    call: _Call | None = None

    def close() -> None:
        nonlocal call
        if call is not None:
            b = call.close()
            if b is not None:
                broken.append(b)
        call = None

    for i, m in enumerate(messages):
        c = _classify_valid(m)
        if c.cls == TOOL_RESULT:
            if call is not None and all(id_ in call.answered for id_ in call.ids):
                close()  # a complete unit takes no more results (BUILD-2, D-32)
            starts.append(i if call is None else call.index)
            undeclared = [id_ for id_ in c.ids if call is None or id_ not in call.ids]
            if undeclared and call is not None:
                # A stranger ends the call's structure, which breaks as a whole
                # under the first code that applies (BUILD-2, D-32).
                for id_ in c.ids:
                    if id_ in call.ids:
                        if id_ in call.answered:
                            call.defect("tool_call_answered_twice", f"{json.dumps(id_)} is answered a second time (messages[{i}])")
                        call.answered.add(id_)
                call.results.append(i)
                call.defect("orphan_tool_result",
                            f"the result for {json.dumps(undeclared[0])} follows the call at messages[{call.index}], which does not declare it")
                at = i if call.code == "orphan_tool_result" else -1
                broken.append(BrokenStructure(call.code, (call.index, *call.results), call.detail, at))
                call = None
                continue
            if undeclared:
                broken.append(BrokenStructure(
                    "orphan_tool_result", (i,),
                    f"the result for {json.dumps(undeclared[0])} does not directly follow a call that declares it"))
                continue
            assert call is not None
            call.results.append(i)
            for id_ in c.ids:
                if id_ in call.answered:
                    call.defect("tool_call_answered_twice", f"{json.dumps(id_)} is answered a second time (messages[{i}])")
                call.answered.add(id_)
            continue
        close()
        starts.append(i)
        if c.cls == TOOL_CALL:
            seen: set[str] = set()
            code, detail = None, ""
            for id_ in c.ids:
                if code is None and (id_ in declared or id_ in seen):
                    code, detail = "duplicate_tool_call_id", f"the call id {json.dumps(id_)} is declared a second time"
                seen.add(id_)
            declared |= seen
            call = _Call(i, c.ids, code, detail)
    close()
    broken.sort(key=lambda b: b.indexes[0])
    return Structure(starts, broken)


def unit_starts(messages: Sequence[Any]) -> list[int]:
    """For every message, the index where its unit starts (UNIT-1).

    Validates the messages and their tool structure first: raises
    InvalidMessageError naming the index and the code of every broken
    structure (UNIT-2), the first one first.
    """
    structure = analyze_structure(messages)
    if structure.broken:
        raise InvalidMessageError("; ".join(b.describe() for b in structure.broken))
    return structure.starts


# --------------------------------------------------------------------------
# Token estimation (EST-1 – EST-5)


def _content_length(message: dict) -> int:
    content = message.get("content")
    if content is None:  # absent or null (EST-4)
        return 0
    if isinstance(content, str):
        return utf16_length(content)
    return utf16_length(js_stringify(content))


def _estimate_valid(messages: Iterable[dict]) -> int:
    characters = sum(_content_length(m) for m in messages)
    return -(-characters // 4)  # rounded up, once, on the total


def estimate_tokens(messages: Sequence[Any]) -> int:
    """Estimates tokens at four characters a token, rounded up (EST-1)."""
    validate_messages(messages)
    return _estimate_valid(messages)


# --------------------------------------------------------------------------
# Configuration (CFG-1 – CFG-6)


def _as_count(value: Any) -> int | None:
    """The count a JSON value stands for (CFG-3), or None if it is not one."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        x: float | int = value
    elif isinstance(value, (JSONNumber, float)):
        x = float(value)
        # The value is the double the number denotes: 3.0 and 3e0 are 3.
        if not math.isfinite(x) or not x.is_integer():
            return None
    else:
        return None
    if x < 0 or x > _MAX_COUNT:
        return None
    return int(x)


def resolve_config(config: Any = None) -> dict:
    """Validates a configuration and applies the defaults; None is ``{}``."""
    if config is None:
        config = {}
    if not isinstance(config, dict):
        raise InvalidConfigError(f"config: must be an object, got {_type_name(config)}")
    effective = dict(DEFAULTS)
    for name, value in config.items():
        if name not in DEFAULTS:
            raise InvalidConfigError(
                f"config.{name}: unknown member (known: {', '.join(DEFAULTS)})"
            )
        if value is None:  # CFG-2: null means absent
            continue
        if name == "summarize_on_trim":
            if not isinstance(value, bool):
                raise InvalidConfigError(f"config.summarize_on_trim: must be a boolean, got {_show(value)}")
            effective[name] = value
        else:
            count = _as_count(value)
            if count is None:
                raise InvalidConfigError(f"config.{name}: must be a non-negative integer, got {_show(value)}")
            effective[name] = count
    return effective


def _show(value: Any) -> str:
    try:
        text = dumps(value)
    except (TypeError, RecursionError):
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


# --------------------------------------------------------------------------
# Summaries of evicted messages (SUM-1, SUM-6, SUM-9)

SUMMARY_INSTRUCTION = (
    "Summarize the following conversation history concisely. Focus on: what files were read/written, "
    "what decisions were made, what problems were encountered, and what the current state of the task is. "
    "Be factual and brief."
)
SUMMARY_MAX_TOKENS = 1024
SUMMARY_PREFIX = "[Conversation Summary]\n"
SUMMARIZE_EVERY = 10  # evicted messages per summary, at most one summary each (SUM-5)
DEFAULT_SUMMARIZER_TIMEOUT = 30.0  # seconds

SUMMARY_FAILED = "summary_failed"
SUMMARY_EMPTY = "summary_empty"
SUMMARY_SKIPPED_NO_TEXT = "summary_skipped_no_text"

Summarizer = Callable[[str, int], str]
"""The summarizer callback: ``summarizer(prompt, max_tokens) -> text``."""


class SummarizerError(ConvspecError):
    """The summarizer failed, timed out or answered nothing (SUM-9)."""

    kind = "summarizer_failed"


def _as_text(value: Any) -> str:
    """A string as itself, anything else in its compact form, absent as nothing."""
    if value is _ABSENT:
        return ""
    return value if isinstance(value, str) else js_stringify(value)


_ABSENT = object()


def _content_parts(content: Any) -> list[str]:
    """The parts a message's content renders as in a summary prompt (SUM-1)."""
    if content is None or content is _ABSENT:
        return []
    if isinstance(content, str):
        return [content]
    if not isinstance(content, list):
        return [js_stringify(content)]
    parts = []
    for block in content:
        kind = block.get("type") if isinstance(block, dict) else None
        if kind == "text":
            parts.append(_as_text(block.get("text", _ABSENT)))
        elif kind == "tool_use":
            tool_input = block.get("input", _ABSENT)
            parts.append(f"tool_use {_as_text(block.get('name', _ABSENT))} "
                         + ("{}" if tool_input is _ABSENT else js_stringify(tool_input)))
        elif kind == "tool_result":
            parts.append(f"tool_result {_as_text(block.get('tool_use_id', _ABSENT))}: "
                         + "\n".join(_content_parts(block.get("content", _ABSENT))))
        else:
            parts.append(js_stringify(block))
    return parts


def render_message(message: dict) -> str:
    """One message as a summary prompt shows it: ``[role] `` and its parts (SUM-1)."""
    content = message.get("content", _ABSENT)
    if message["role"] == "tool":
        parts = [f"tool_result {_as_text(message.get('tool_call_id', _ABSENT))}: " + "\n".join(_content_parts(content))]
    else:
        parts = _content_parts(content)
    calls = message.get("tool_calls")
    if isinstance(calls, list):
        for call in calls:
            function = call.get("function") if isinstance(call, dict) else None
            if not isinstance(function, dict):
                function = {}
            parts.append(f"tool_call {_as_text(function.get('name', _ABSENT))} {_as_text(function.get('arguments', _ABSENT))}")
    return f"[{message['role']}] " + "\n".join(parts)


def summary_prompt(messages: Sequence[dict]) -> str:
    """The prompt of a summarizer call covering ``messages`` (SUM-1)."""
    return SUMMARY_INSTRUCTION + "\n\n" + "\n\n".join(render_message(m) for m in messages)


def _has_text(messages: Iterable[dict]) -> bool:
    """Whether a message that is not a tool result has text with a character
    other than white space: string content, or a text block's text (SUM-6)."""
    for m in messages:
        if _classify_valid(m).cls == TOOL_RESULT:
            continue
        content = m.get("content")
        if isinstance(content, str) and strip_white_space(content):
            return True
        for _, block in _blocks(content, "text"):
            text = block.get("text")
            if isinstance(text, str) and strip_white_space(text):
                return True
    return False


def call_summarizer(summarizer: Summarizer, prompt: str, timeout: float | None = DEFAULT_SUMMARIZER_TIMEOUT) -> str:
    """Calls the summarizer with ``max_tokens`` 1024, giving up after ``timeout``
    seconds (None: waits for ever). Returns the reply as given; raises
    SummarizerError when the summarizer raises, times out or returns
    something that is not a string."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["reply"] = summarizer(prompt, SUMMARY_MAX_TOKENS)
        except BaseException as e:  # noqa: BLE001 - whatever it raises is its failure
            box["error"] = e

    worker = threading.Thread(target=run, name="convspec-summarizer", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise SummarizerError(f"the summarizer did not answer within {timeout:g} s")
    if "error" in box:
        raise SummarizerError(f"the summarizer failed: {box['error']}") from box["error"]
    reply = box["reply"]
    if not isinstance(reply, str):
        raise SummarizerError(f"the summarizer returned {_type_name(reply)}, not text")
    return reply


def summarize(messages: Sequence[Any], summarizer: Summarizer, timeout: float | None = DEFAULT_SUMMARIZER_TIMEOUT) -> str:
    """Summarizes ``messages`` with one summarizer call (SUM-9): the reply
    without leading and trailing white space. Raises SummarizerError for a
    failed or empty reply, InvalidMessageError for an invalid message."""
    validate_messages(messages)
    reply = strip_white_space(call_summarizer(summarizer, summary_prompt(messages), timeout))
    if not reply:
        raise SummarizerError("the summarizer's reply is empty")
    return reply


# --------------------------------------------------------------------------
# The window (WIN-1 – WIN-9, MET-1, SUM-2 – SUM-8)


@dataclass(frozen=True)
class WindowWarning:
    """A warning as the protocol writes it: a stable code and a message for people."""

    code: str
    message: str

    def to_json(self) -> dict:
        return {"code": self.code, "message": self.message}


@dataclass(frozen=True)
class ConversationMetrics:
    total_messages: int
    preserved_messages: int
    evicted_messages: int
    estimated_tokens: int

    def to_json(self) -> dict:
        return {
            "totalMessages": self.total_messages,
            "preservedMessages": self.preserved_messages,
            "evictedMessages": self.evicted_messages,
            "estimatedTokens": self.estimated_tokens,
        }


@dataclass(frozen=True)
class TrimResult:
    trimmed: list
    evicted: list
    metrics: ConversationMetrics
    warnings: list[WindowWarning] = field(default_factory=list)
    summary: dict | None = None  # the summary message inserted into trimmed (SUM-2)

    def to_json(self) -> dict:
        return {
            "trimmed": self.trimmed,
            "evicted": self.evicted,
            "metrics": self.metrics.to_json(),
            "warnings": [w.to_json() for w in self.warnings],
            "summary": self.summary,
        }


@dataclass(frozen=True)
class _Cut:
    """Where a trim cuts a conversation: head ``[:head_end]``, evicted
    ``[head_end:keep_from]``, kept middle ``[keep_from:tail_start]``, tail
    ``[tail_start:]``; ``fills`` when head and tail alone fill the cap (WIN-3)."""

    head_end: int
    keep_from: int
    tail_start: int
    fills: bool


class ConversationWindow:
    """Keeps a preserved head and tail and the most recent middle of a
    conversation; with ``summarize_on_trim`` and a summarizer, condenses what
    it evicts into one summary message."""

    def __init__(self, config: Any = None) -> None:
        """Raises InvalidConfigError if ``config`` breaks CFG-3 or CFG-4."""
        self._config = resolve_config(config)
        self.max_messages: int = self._config["max_messages"]
        self.summarize_on_trim: bool = self._config["summarize_on_trim"]
        self.preserve_first_n: int = self._config["preserve_first_n"]
        self.preserve_last_n: int = self._config["preserve_last_n"]
        self.warnings: tuple[WindowWarning, ...] = (self._preserve_warning(),) if self._fills_cap() else ()
        # Messages evicted since the last summary, not yet offered to one (SUM-4).
        self._pending: list = []

    @property
    def config(self) -> dict:
        """The effective configuration (every default applied)."""
        return dict(self._config)

    def _fills_cap(self) -> bool:
        """CFG-6: head and tail leave no room in the cap."""
        return self.max_messages > 0 and self.preserve_first_n + self.preserve_last_n >= self.max_messages

    def _preserve_warning(self) -> WindowWarning:
        return WindowWarning(
            PRESERVE_EXCEEDS_MAX,
            f"preserve_first_n ({self.preserve_first_n}) + preserve_last_n ({self.preserve_last_n}) "
            f">= max_messages ({self.max_messages}): only the preserved head and tail are kept",
        )

    def estimate_tokens(self, messages: Sequence[Any]) -> int:
        return estimate_tokens(messages)

    def _cut(self, starts: list[int], cap: int) -> _Cut:
        """Plans a trim of a conversation longer than ``cap`` (WIN-2 – WIN-4, WIN-9)."""
        n = len(starts)
        h, t = self.preserve_first_n, self.preserve_last_n

        def boundary(b: int) -> bool:  # a unit starts at b, or b is the end
            return b == n or starts[b] == b

        # Three zones that never overlap, cut between units; head and tail
        # grow to whole units.
        head_end = min(h, n)
        while not boundary(head_end):
            head_end += 1
        tail_start = n - min(t, n - head_end)
        if tail_start < n:
            tail_start = starts[tail_start]
        preserved = head_end + (n - tail_start)
        if preserved >= cap:
            return _Cut(head_end, tail_start, tail_start, True)  # WIN-3
        # WIN-4: the most recent whole middle units holding at most k messages.
        keep_from = tail_start - (cap - preserved)
        while not boundary(keep_from):
            keep_from += 1
        return _Cut(head_end, keep_from, tail_start, False)

    def _result(self, messages: Sequence[Any], cut: _Cut | None, summary: dict | None = None,
                warnings: Iterable[WindowWarning] = ()) -> TrimResult:
        warnings = list(warnings)
        if cut is None:
            trimmed, evicted = list(messages), []
        else:
            head, tail = list(messages[:cut.head_end]), list(messages[cut.tail_start:])
            trimmed = head + ([summary] if summary is not None else []) + list(messages[cut.keep_from:cut.tail_start]) + tail
            evicted = list(messages[cut.head_end:cut.keep_from])
            if cut.fills:
                warnings.insert(0, self._preserve_warning())
        metrics = ConversationMetrics(
            total_messages=len(messages),
            preserved_messages=len(trimmed) - (summary is not None),  # input messages only (SUM-2)
            evicted_messages=len(evicted),
            estimated_tokens=_estimate_valid(trimmed),
        )
        return TrimResult(trimmed, evicted, metrics, warnings, summary)

    def trim(self, messages: Sequence[Any], summarizer: Summarizer | None = None,
             timeout: float | None = DEFAULT_SUMMARIZER_TIMEOUT) -> TrimResult:
        """Trims ``messages`` to the window; the input is not modified.

        With ``summarize_on_trim`` and a ``summarizer``, evicted messages are
        condensed into a summary message placed after the head, at most once
        per ten evicted messages; a summarizer that fails or does not answer
        within ``timeout`` seconds leaves a warning and plain eviction.

        Raises InvalidMessageError for an invalid message or a broken tool
        structure (MSG-1, CLS-2, UNIT-2).
        """
        starts = unit_starts(messages)
        n, cap = len(messages), self.max_messages
        if cap == 0 or n <= cap:
            return self._result(messages, None)  # WIN-1, CFG-5: nothing changes
        plain = self._cut(starts, cap)
        if not (self.summarize_on_trim and summarizer is not None):
            return self._result(messages, plain)  # SUM-8
        plain_evicted = list(messages[plain.head_end:plain.keep_from])

        # SUM-3: a summary takes one place of the cap (WIN-3 keeps its middle empty).
        planned = self._cut(starts, cap - 1)
        evicted = list(messages[planned.head_end:planned.keep_from])
        covered = self._pending + evicted  # SUM-4
        if not evicted or len(covered) < SUMMARIZE_EVERY:  # SUM-5
            self._pending += plain_evicted
            return self._result(messages, plain)
        if not _has_text(covered):  # SUM-6
            self._pending = []
            return self._result(messages, plain, warnings=[WindowWarning(
                SUMMARY_SKIPPED_NO_TEXT,
                f"the {len(covered)} messages to summarize hold no text (only tool results and calls); none was made")])
        try:
            reply = strip_white_space(call_summarizer(summarizer, summary_prompt(covered), timeout))
        except SummarizerError as e:  # SUM-7
            self._pending += plain_evicted
            return self._result(messages, plain, warnings=[WindowWarning(
                SUMMARY_FAILED, f"{e}; evicted without a summary, the next summary will cover them")])
        if not reply:
            self._pending += plain_evicted
            return self._result(messages, plain, warnings=[WindowWarning(
                SUMMARY_EMPTY, "the summarizer's reply is empty; evicted without a summary, the next summary will cover them")])
        self._pending = []
        return self._result(messages, planned, summary={"role": "assistant", "content": SUMMARY_PREFIX + reply})
