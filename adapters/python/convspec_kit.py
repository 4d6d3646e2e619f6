"""convspec-kit: the convspec wire protocol (spec/protocol.md) around a
trimming library.

``serve(name=..., version=..., window=..., history=...)`` answers ``conform``
on stdin/stdout and declares the capabilities of the handlers given. The kit
owns what every adapter otherwise writes by hand: framing (bytes that are not
UTF-8 included), JSON-RPC and its error codes, window handles, the params of
every method, the scripted summarizer, exact numbers and message identity
(MSG-2), and serialized calls of async handlers. Standard library only,
Python 3.9 or later; one module.

A handler group is a dict or any object (a class, a module, a namespace)
with the handlers as keys or attributes::

    import convspec_kit as kit

    kit.run(
        name="my-trimmer", version="1.0.0",
        window={
            "create": lambda config, summarizer: {"window": Trimmer(config), "config": ..., "warnings": []},
            "trim": lambda window, messages, summarizer: window.trim(messages),
            "estimate": estimate_tokens,
        },
    )

A handler may be ``async``: the kit awaits it, one request at a time.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import json.scanner
import math
import os
import re
import sys
import threading
import time
import traceback
from decimal import Decimal
from typing import Any, Callable, Iterable, Sequence

__all__ = [
    "serve",
    "run",
    "capabilities",
    "KitError",
    "invalid_params",
    "invalid_message",
    "invalid_config",
    "unknown_model",
    "invariant_violation",
    "summarizer_failed",
    "context_window_exhausted",
    "unsupported",
    "Summarizer",
    "check_messages",
    "json_equal",
    "restore",
    "part_of",
    "peel_system",
    "JSONNumber",
    "loads",
    "dumps",
    "DEFAULT_TIMEOUT",
    "DEFAULT_MAX_TOKENS",
    "content_chars",
    "chars4",
    "count_chars4",
    "LEVELS",
    "FORMATS",
    "GUARANTEES",
]

PROTOCOL = 1

# --------------------------------------------------------------------------
# Errors (spec/protocol.md, "Errors")

CODES = {
    "parse_error": -32700,
    "invalid_request": -32600,
    "method_not_found": -32601,
    "invalid_params": -32602,
    "internal_error": -32603,
    "invalid_config": -32001,
    "invalid_message": -32002,
    "unknown_model": -32003,
    "context_window_exhausted": -32004,
    "invariant_violation": -32005,
    "unsupported": -32006,
    "summarizer_failed": -32007,
}


class KitError(Exception):
    """An error answered with its kind and, for some kinds, facts in ``data``."""

    def __init__(self, kind: str, message: str, data: dict | None = None) -> None:
        if kind not in CODES:
            raise ValueError(f"unknown error kind {kind!r}")
        super().__init__(message)
        self.kind = kind
        self.data = dict(data or {})


def invalid_params(message: str) -> KitError:
    return KitError("invalid_params", message)


def invalid_message(message: str) -> KitError:
    return KitError("invalid_message", message)


def invalid_config(message: str, path: str | None = None) -> KitError:
    """``path``: the dotted path of the offending member of a config file (CONF-4)."""
    return KitError("invalid_config", message, {} if path is None else {"path": path})


def unknown_model(message: str) -> KitError:
    return KitError("unknown_model", message)


def invariant_violation(message: str) -> KitError:
    return KitError("invariant_violation", message)


def summarizer_failed(message: str) -> KitError:
    return KitError("summarizer_failed", message)


def context_window_exhausted(message: str, token_count: int, limit: int, model: str) -> KitError:
    """The kit adds ``summarizer_calls``, the number of calls the request made (PREP-4)."""
    return KitError("context_window_exhausted", message, {"tokenCount": token_count, "limit": limit, "model": model})


def unsupported(message: str) -> KitError:
    """Declines this one request: the case is reported unsupported, not failed."""
    return KitError("unsupported", message)


_FACTS = ("path", "tokenCount", "limit", "model")


def _wire_error(kind: str, message: str, data: dict | None = None) -> dict:
    return {"code": CODES[kind], "message": message, "data": {**(data or {}), "kind": kind}}


def _from_raised(e: BaseException) -> dict:
    """An exception with a ``kind`` of the table (a KitError, or a library's
    own error class) keeps its kind, message and ``data`` (or else its
    ``path``, ``tokenCount``, ``limit`` and ``model`` attributes); anything
    else is an ``internal_error`` with its message."""
    kind = getattr(e, "kind", None)
    if isinstance(kind, str) and kind in CODES:
        data = getattr(e, "data", None)
        if not isinstance(data, dict):
            data = {name: getattr(e, name) for name in _FACTS if getattr(e, name, None) is not None}
        return _wire_error(kind, str(e), data)
    return _wire_error("internal_error", f"{type(e).__name__}: {e}", {"traceback": _traceback(e)})


def _traceback(e: BaseException) -> str:
    """Where a bug arose, for ``data.traceback`` (conform shows it under the
    failure): the traceback without the kit's own frames, which are the same
    for every request and say nothing about the library."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename != __file__]
    return "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames)) + \
        "".join(traceback.format_exception_only(type(e), e))


# --------------------------------------------------------------------------
# JSON in and out: numbers exact (MSG-2), nesting as deep as it comes


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


def _plain_int(text: str) -> Any:
    if not text.isascii():
        raise ValueError(f"{text!r} is not a JSON number")
    return int(text) if len(text) <= 4000 else float(text)  # Python refuses to parse longer ints


def _plain_float(text: str) -> float:
    if not text.isascii():
        raise ValueError(f"{text!r} is not a JSON number")
    return float(text)


def _decoders(parse_int: Callable[[str], Any], parse_float: Callable[[str], Any]) -> tuple[json.JSONDecoder, json.JSONDecoder]:
    fast = json.JSONDecoder(parse_int=parse_int, parse_float=parse_float, parse_constant=_reject_constant)
    # The pure-Python scanner recurses on Python frames (bounded by
    # sys.setrecursionlimit) where the C scanner has a fixed limit of its own.
    deep = json.JSONDecoder(parse_int=parse_int, parse_float=parse_float, parse_constant=_reject_constant)
    deep.scan_once = json.scanner.py_make_scanner(deep)  # type: ignore[attr-defined]
    return fast, deep


_EXACT = _decoders(JSONNumber, JSONNumber)
_PLAIN = _decoders(_plain_int, _plain_float)


def _decode(text: str, decoders: tuple[json.JSONDecoder, json.JSONDecoder]) -> Any:
    try:
        return decoders[0].decode(text)
    except RecursionError:
        return decoders[1].decode(text)


def loads(text: str, exact: bool = True) -> Any:
    """Parses strict JSON (no NaN or Infinity). ``exact``: numbers as
    JSONNumber; otherwise as ``int`` (integer literals) and ``float``."""
    return _decode(text, _EXACT if exact else _PLAIN)


def _wire_number(value: Any) -> str:
    if isinstance(value, JSONNumber):
        return value.text
    if isinstance(value, int):
        return str(value)
    if math.isfinite(value):
        return repr(value)
    return "1e400" if value > 0 else "-1e400"  # the same double value as ±inf


def dumps(value: Any, substitute: dict[int, Any] | None = None) -> str:
    """Compact ASCII JSON, without recursion (content may be nested deeper than
    the call stack allows). A JSONNumber is written as received; an object
    with a ``to_json()`` method as what it returns; a dataclass as its fields;
    an object whose ``id`` is in ``substitute`` as the value it maps to (a
    message the library got back is written as the message received)."""
    out: list[str] = []
    stack: list[list[Any]] = []  # [items, names or None, next index]

    def open_(v: Any) -> None:
        if substitute and id(v) in substitute:
            v = substitute[id(v)]
        if hasattr(v, "to_json") and callable(v.to_json):
            v = v.to_json()
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            v = {f.name: getattr(v, f.name) for f in dataclasses.fields(v)}
        if isinstance(v, str):
            out.append(json.dumps(v))
        elif v is None:
            out.append("null")
        elif v is True:
            out.append("true")
        elif v is False:
            out.append("false")
        elif isinstance(v, (JSONNumber, int, float)):
            out.append(_wire_number(v))
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
            out.append(json.dumps(names[i]) + ":")
        open_(items[i])
    return "".join(out)


# --------------------------------------------------------------------------
# Messages (MSG-1, MSG-2)

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
    """Whether every string, member names included, is well-formed Unicode: a
    surrogate in a Python string is an unpaired escape or a byte that was not
    UTF-8 (decoded with ``surrogateescape``)."""
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
    if not isinstance(role, str) or role == "":
        return '"role" must be a non-empty string, got ' + ("an empty string" if role == "" else _type_name(role))
    if not _well_formed(m):
        return "contains a string that is not well-formed Unicode (an unpaired surrogate or bytes that are not UTF-8)"
    return None


def check_messages(messages: Sequence[Any], where: Callable[[int], str] = lambda i: f"messages[{i}]") -> None:
    """Raises ``invalid_message`` naming the first element that is not a message (MSG-1)."""
    for i, m in enumerate(messages):
        problem = _message_problem(m)
        if problem is not None:
            raise invalid_message(f"{where(i)}: {problem}")


def json_equal(a: Any, b: Any) -> bool:
    """JSON-equality of MSG-2: numbers as doubles, member order free, without recursion."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y:
            continue
        if isinstance(x, bool) or isinstance(y, bool) or x is None or y is None:
            if x is not y:
                return False
        elif isinstance(x, (JSONNumber, int, float)):
            if not isinstance(y, (JSONNumber, int, float)) or _double(x) != _double(y):
                return False
        elif isinstance(x, str):
            if x != y:
                return False
        elif isinstance(x, (list, tuple)):
            if not isinstance(y, (list, tuple)) or len(x) != len(y):
                return False
            stack.extend(zip(x, y))
        elif isinstance(x, dict):
            if not isinstance(y, dict) or x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        else:
            return False
    return True


def _double(x: Any) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def part_of(rebuilt: Any, given: dict) -> bool:
    """Whether ``rebuilt`` may stand for ``given``: a dict each of whose
    members is a member of ``given`` with a JSON-equal value (a rebuilt
    message may leave members out, but not change or add one)."""
    if not isinstance(rebuilt, dict):
        return False
    return all(name in given and json_equal(value, given[name]) for name, value in rebuilt.items())


def restore(rebuilt: Iterable[Any], given: Sequence[Any], same: Callable[[Any, Any], bool] = part_of) -> list:
    """For a library that rebuilds the messages it returns (new objects,
    members dropped): maps each rebuilt message back to the one it stands for
    among ``given``, so that the kit answers with the exact input (MSG-2). The
    rebuilt messages that ``same`` accepts (by default ``part_of``: the
    library left members out) are matched to given ones in order, each used
    once (results keep the order of their input); where a message could
    stand for several, it takes the first JSON-equal to it that still leaves
    the rest a match, or else the first. One that matches none (a summary,
    say) is kept as it is. Messages equal in every member the library kept
    are told apart by order alone."""
    rebuilt = list(rebuilt)
    # latest[k]: the last place rebuilt[k] can take with the rest still matched (-1: it matches none).
    latest = [-1] * len(rebuilt)
    j = len(given) - 1
    for k in range(len(rebuilt) - 1, -1, -1):
        i = j
        while i >= 0 and not same(rebuilt[k], given[i]):
            i -= 1
        if i >= 0:
            latest[k], j = i, i - 1
    out = []
    start = 0
    for r, last in zip(rebuilt, latest):
        if last == -1:
            out.append(r)
            continue
        window = range(start, last + 1)
        pick = next((i for i in window if json_equal(r, given[i])), None)
        if pick is None:
            pick = next(i for i in window if same(r, given[i]))
        out.append(given[pick])
        start = pick + 1
    return out


def peel_system(messages: Sequence[dict]) -> tuple[str | None, list]:
    """Splits off a leading system prompt, for a library that takes it as a
    separate argument: ``(system, rest)``, ``system`` the first message's
    content when it has role ``system`` and string content, else None."""
    if messages and messages[0].get("role") == "system" and isinstance(messages[0].get("content"), str):
        return messages[0]["content"], list(messages[1:])
    return None, list(messages)


# --------------------------------------------------------------------------
# Counters of a token-bounded trimmer (ANY-6): chars4 counts each message
# ceil(c / 4) with c the characters of its content (EST-2 – EST-5), rounded
# per message. cl100k needs a tokenizer, which the standard library does not
# have: a library that counts with it brings its own (tiktoken).


def _utf16_len(text: str) -> int:
    """Characters as ECMAScript counts them (EST-2): UTF-16 code units."""
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def _js_number(value: Any) -> str:
    """A number as ECMAScript's Number::toString writes it (EST-3): the
    shortest digits that give the double back, in its notation; a number too
    large for a double is ``null``."""
    x = float(value) if not isinstance(value, JSONNumber) else value.value
    if not math.isfinite(x):
        return "null"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    t = Decimal(repr(abs(x))).normalize().as_tuple()
    digits = "".join(map(str, t.digits))
    k, n = len(digits), len(digits) + t.exponent  # the value is 0.digits × 10^n
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * -n + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e > 0 else "-") + str(abs(e))
    return sign + out


def _compact_chars(value: Any) -> int:
    """The characters of JSON.stringify(value) (EST-3), without recursion."""
    n = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            n += _utf16_len(json.dumps(v, ensure_ascii=False))
        elif v is None:
            n += 4
        elif v is True:
            n += 4
        elif v is False:
            n += 5
        elif isinstance(v, (JSONNumber, int, float)):
            n += len(_js_number(v))
        elif isinstance(v, dict):
            n += 2 + max(len(v) - 1, 0) + len(v)  # braces, commas, colons
            for k, item in v.items():
                n += _utf16_len(json.dumps(k, ensure_ascii=False))
                stack.append(item)
        elif isinstance(v, (list, tuple)):
            n += 2 + max(len(v) - 1, 0)
            stack.extend(v)
        else:
            raise TypeError(f"not a JSON value: {type(v).__name__}")
    return n


def content_chars(message: Any) -> int:
    """The characters of a message's content (EST-2 – EST-5): UTF-16 code
    units of a string, of the compact JSON serialization of other content;
    0 for absent or null content. Nothing but content counts."""
    content = message.get("content") if isinstance(message, dict) else None
    if content is None:
        return 0
    if isinstance(content, str):
        return _utf16_len(content)
    return _compact_chars(content)


def chars4(message: Any) -> int:
    """A message's chars4 count: ceil(characters / 4) (ANY-6)."""
    return (content_chars(message) + 3) // 4


def count_chars4(messages: Iterable[Any]) -> int:
    """The chars4 count of a list: per message, rounded up, summed (ANY-6; not EST-1's single division)."""
    return sum(chars4(m) for m in messages)


# --------------------------------------------------------------------------
# Declarations of the handshake (spec/protocol.md, "initialize"): levels,
# formats and trimmers (ANY-10), checked when serve starts, so that a wrong
# one is the adapter author's error at once, never a protocol error later.

LEVELS = ("core", "validation", "diagnostics")
FORMATS = ("openai", "anthropic")
GUARANTEES = ("subsequence", "units", "system", "last_prompt", "last_unit", "bound", "fits", "idempotent", "total")


def _names(value: Any, what: str, known: Sequence[str]) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str) or not isinstance(value, (list, tuple)) or not value:
        raise TypeError(f"convspec_kit: {what} must be a non-empty list of {', '.join(known)}")
    for v in value:
        if v not in known:
            raise TypeError(f"convspec_kit: {what}: unknown {v!r} (known: {', '.join(known)})")
    if len(set(value)) != len(value):
        raise TypeError(f"convspec_kit: {what}: a name is given twice")
    return list(value)


_MEMBER_CLAIMS = {"head": '"head"', "start": '"start"', "counter": '"counter": "native"', "fallback": '"fallback"'}
_V2_MEMBERS = ("system", "head", "markers", "slack", "results", "limit_min", "start", "count", "refuses", "fallback")


def _version2(get: Callable[[str], Any], at: str) -> dict:
    """The second declaration's members (SPEC ANY-10, D-60), checked: each
    needs ``version`` 2, and one that contradicts the others is refused
    naming it, as the harness refuses it."""

    def bad(member: str, why: str) -> TypeError:
        return TypeError(f"convspec_kit: {at}.{member} {why}")

    def is_count(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    version, guarantees = get("version"), get("guarantees") or []
    out: dict[str, Any] = {}
    if version not in (None, 1, 2):
        raise bad("version", f"must be 1 or 2, got {version!r}")
    if version != 2:
        for m in _V2_MEMBERS:
            if get(m) is not None:
                raise bad(m, 'needs "version": 2')
        if get("counter") == "native":
            raise bad("counter", '"native" needs "version": 2')
        if version == 1:
            out["version"] = 1
        return out
    out["version"] = 2
    system, head, markers, slack = get("system"), get("head"), get("markers"), get("slack")
    results, limit_min, start, count = get("results"), get("limit_min"), get("start"), get("count")
    if system is not None:
        if system not in ("leading", "first", "first_anywhere", "all"):
            raise bad("system", 'must be "leading", "first", "first_anywhere" or "all"')
        if "system" not in guarantees:
            raise bad("system", 'says which system messages are kept, but the trimmer does not claim "system"')
        out["system"] = system
    if head is not None:
        if not is_count(head):
            raise bad("head", "must be a count of messages")
        out["head"] = head
    if markers is not None:
        if not isinstance(markers, dict) or not isinstance(markers.get("prefix"), str) or not markers["prefix"]:
            raise bad("markers.prefix", "is missing: a marker is recognized by the text it starts with")
        if markers.get("role") not in (None, "system", "user", "assistant"):
            raise bad("markers.role", 'must be "system", "user" or "assistant"')
        out["markers"] = {k: markers[k] for k in ("role", "prefix") if markers.get(k) is not None}
    if slack is not None:
        if slack != "unit":
            raise bad("slack", 'must be "unit"')
        if "bound" not in guarantees:
            raise bad("slack", 'qualifies the bound, but the trimmer does not claim "bound"')
        out["slack"] = slack
    if results is not None:
        if results != "one":
            raise bad("results", 'must be "one"')
        if get("bound") != "messages":
            raise bad("results", f"counts messages, but the bound is {get('bound')!r}")
        out["results"] = results
    if limit_min is not None:
        if not is_count(limit_min):
            raise bad("limit_min", "must be a count")
        out["limit_min"] = limit_min
    if start is not None:
        if start != "user":
            raise bad("start", 'must be "user"')
        out["start"] = start
    refuses = get("refuses")
    if refuses is not None:
        if refuses != "nothing_fits":
            raise bad("refuses", 'must be "nothing_fits"')
        out["refuses"] = refuses
    fallback = get("fallback")
    if fallback is not None:  # ANY-14, D-76: the lone last message, when nothing fits
        if fallback != "last_message":
            raise bad("fallback", 'must be "last_message"')
        for g in ("units", "last_prompt", "last_unit"):
            if g in guarantees:
                raise bad("fallback", f'keeps the last message alone when nothing fits, which contradicts the claim "{g}"')
        if refuses is not None:
            raise bad("fallback", "answers the last message when nothing fits, but refuses says the trimmer refuses then")
        out["fallback"] = fallback
    if count is not None:
        if not isinstance(count, dict):
            raise bad("count", "must be a dict {over?, separator?, tool_payloads?}")
        if get("bound") != "tokens":
            raise bad("count", f"says how tokens are counted, but the bound is {get('bound')!r}")
        if count.get("over") not in (None, "message", "joined"):
            raise bad("count.over", 'must be "message" or "joined"')
        if count.get("separator") is not None and (not isinstance(count["separator"], str) or count.get("over") != "joined"):
            raise bad("count.separator", 'joins texts: a string, with count.over "joined"')
        if count.get("tool_payloads") is not None and not isinstance(count["tool_payloads"], bool):
            raise bad("count.tool_payloads", "must be a boolean")
        if get("counter") == "native" and (count.get("separator") is not None or count.get("tool_payloads") is not None):
            raise bad("count", 'of a native counter may only say "over": it counts what the library counts')
        out["count"] = {k: count[k] for k in ("over", "separator", "tool_payloads") if count.get(k) is not None}
    return out


def _trimmer_declarations(trimmers: Any) -> tuple[list[dict], dict[str, Callable], dict[str, Callable]] | None:
    """The trimmers as the handshake declares them, and their trim functions
    by name. A trimmer is a dict (or an object with those attributes):
    ``name``, ``bound`` ("messages" or "tokens"), ``counter`` ("chars4" or
    "cl100k", for a token bound only), ``formats`` (optional),
    ``guarantees`` and ``trim(messages, limit)``; with ``version`` 2 the
    members of the second declaration (D-60), and for counter "native"
    ``native_count(messages)``, which answers trimmer.count."""
    if trimmers is None:
        return None
    if not isinstance(trimmers, (list, tuple)) or not trimmers:
        raise TypeError("convspec_kit: trimmers must be a non-empty list")
    decls, trims, counts = [], {}, {}
    for i, t in enumerate(trimmers):
        at = f"trimmers[{i}]"

        def get(name: str, t: Any = t) -> Any:
            return t.get(name) if isinstance(t, dict) else getattr(t, name, None)

        name, bound, counter = get("name"), get("bound"), get("counter")
        if not isinstance(name, str) or name == "":
            raise TypeError(f"convspec_kit: {at}.name must be a non-empty string")
        if name in trims:
            raise TypeError(f"convspec_kit: {at}.name {name!r} is declared twice")
        if bound not in ("messages", "tokens"):
            raise TypeError(f'convspec_kit: {at}.bound must be "messages" or "tokens", got {bound!r}')
        if bound == "tokens" and counter not in ("chars4", "cl100k", "native"):
            raise TypeError(f'convspec_kit: {at}.counter must be "chars4", "cl100k" or "native" for a token bound, got {counter!r}')
        if bound == "messages" and counter is not None:
            raise TypeError(f"convspec_kit: {at}.counter must be absent for a message bound")
        trim = get("trim")
        if not callable(trim):
            raise TypeError(f"convspec_kit: {at}.trim must be a function (messages, limit) -> messages")
        decl: dict[str, Any] = {"name": name, "bound": bound}
        if counter is not None:
            decl["counter"] = counter
        formats = _names(get("formats"), f"{at}.formats", FORMATS)
        if formats is not None:
            decl["formats"] = formats
        guarantees = get("guarantees") or []
        for g in guarantees:
            if g in _MEMBER_CLAIMS:
                raise TypeError(f"convspec_kit: {at}.guarantees: {g!r} is not listed; it is claimed by the member {_MEMBER_CLAIMS[g]} (version 2)")
        decl["guarantees"] = _names(guarantees, f"{at}.guarantees", GUARANTEES) if guarantees else []
        decl.update(_version2(get, at))
        native_count = get("native_count")
        if counter == "native" and not callable(native_count):
            raise TypeError(f'convspec_kit: {at}.native_count must be a function (messages) -> int for counter "native"')
        if counter != "native" and native_count is not None:
            raise TypeError(f'convspec_kit: {at}.native_count is given, but the counter is not "native"')
        decls.append(decl)
        trims[name] = trim
        if native_count is not None:
            counts[name] = native_count
    return decls, trims, counts


# --------------------------------------------------------------------------
# Params (spec/protocol.md, "Methods")

_MAX_COUNT = 2**53 - 1
_ABSENT = object()


def _absent(params: dict, name: str) -> bool:
    return params.get(name) is None


def _member(params: dict, name: str) -> Any:
    if _absent(params, name):
        raise invalid_params(f"params.{name}: missing")
    return params[name]


def _count(value: Any) -> int | None:
    """The count a JSON value stands for (CFG-3): an integer from 0 to 2^53 − 1, as a double."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value.is_integer()):
        return None
    return int(value) if 0 <= value <= _MAX_COUNT else None


def _messages_param(params: dict) -> list:
    messages = _member(params, "messages")
    if not isinstance(messages, list):
        raise invalid_params("params.messages: must be an array of messages")
    check_messages(messages)
    return messages


def _string_param(params: dict, name: str) -> str:
    value = _member(params, name)
    if not isinstance(value, str):
        raise invalid_params(f"params.{name}: must be a string, got {_type_name(value)}")
    return value


def _model_param(params: dict) -> str:
    model = _string_param(params, "model")
    if model == "":
        raise invalid_params("params.model: must not be empty")
    return model


def _limits_param(params: dict) -> dict[str, int]:
    if _absent(params, "limits"):
        return {}
    limits = params["limits"]
    if not isinstance(limits, dict):
        raise invalid_params(f"params.limits: must be an object, got {_type_name(limits)}")
    out = {}
    for model, limit in limits.items():
        count = _count(limit)
        if not count:
            raise invalid_params(f"params.limits[{json.dumps(model)}]: must be a positive integer, got {dumps(limit)}")
        out[model] = count
    return out


def _target_ratio_param(params: dict) -> float:
    if _absent(params, "target_ratio"):
        return 0.8
    r = params["target_ratio"]
    if isinstance(r, bool) or not isinstance(r, (int, float)) or not (0 < r <= 1) or abs(r * 100 - round(r * 100)) > 1e-9:
        raise invalid_params(f"params.target_ratio: must be a number above 0 and at most 1 with at most two decimals, got {dumps(r)}")
    return float(r)


def _count_param(params: dict, name: str) -> int:
    """A count member (CFG-3): ``max_messages`` of history.build, ``limit`` of trimmer.trim."""
    value = _member(params, name)
    count = _count(value)
    if count is None:
        raise invalid_params(f"params.{name}: must be a non-negative integer, got {dumps(value)}")
    return count


def _max_messages_param(params: dict) -> int:
    return _count_param(params, "max_messages")


def _config_file_param(params: dict) -> tuple[str, str]:
    source = _member(params, "config")
    if not isinstance(source, dict):
        raise invalid_params(f"params.config: must be an object with format and text, got {_type_name(source)}")
    fmt, text = source.get("format"), source.get("text")
    if fmt not in ("yaml", "json"):
        raise invalid_params(f'params.config.format: must be "yaml" or "json", got {dumps(fmt)}')
    if not isinstance(text, str):
        raise invalid_params(f"params.config.text: must be a string, got {_type_name(text)}")
    return fmt, text


def _array(o: dict, name: str, where: str) -> list:
    value = o.get(name, _ABSENT)
    if not isinstance(value, list):
        raise invalid_params(f"{where}.{name}: must be an array, got {'nothing' if value is _ABSENT else _type_name(value)}")
    return value


def _scripted_run(params: dict, places: dict[int, str]) -> tuple[list, list]:
    """``initial`` and ``iterations`` of loop.run: the shape first, then every
    message (MSG-1) named by its place in the run, which ``places`` records
    (by ``id``)."""
    initial = _array(params, "initial", "params")
    iterations = []
    for i, it in enumerate(_array(params, "iterations", "params")):
        where = f"params.iterations[{i}]"
        if not isinstance(it, dict):
            raise invalid_params(f"{where}: must be an object with prompt and turns, got {_type_name(it)}")
        if it.get("prompt") is None:
            raise invalid_params(f"{where}.prompt: missing")
        turns = []
        for j, turn in enumerate(_array(it, "turns", where)):
            at = f"{where}.turns[{j}]"
            if not isinstance(turn, dict):
                raise invalid_params(f"{at}: must be an object with response and results, got {_type_name(turn)}")
            if turn.get("response") is None:
                raise invalid_params(f"{at}.response: missing")
            results = [] if turn.get("results") is None else _array(turn, "results", at)
            turns.append((turn["response"], results))
        iterations.append((it["prompt"], turns))

    def place(m: Any, where: str) -> None:
        check_messages([m], lambda _: where)
        places[id(m)] = where

    for i, m in enumerate(initial):
        place(m, f"initial[{i}]")
    for i, (prompt, turns) in enumerate(iterations):
        place(prompt, f"iterations[{i}].prompt")
        for j, (response, results) in enumerate(turns):
            place(response, f"iterations[{i}].turns[{j}].response")
            for k, r in enumerate(results):
                place(r, f"iterations[{i}].turns[{j}].results[{k}]")
    return initial, iterations


# --------------------------------------------------------------------------
# The scripted summarizer (spec/protocol.md, "The scripted summarizer")

DEFAULT_TIMEOUT = 30.0  # seconds: timeout_ms absent or 0
DEFAULT_MAX_TOKENS = 1024  # recorded for a callback that is not told one (SUM-1, SUM-9)


class _Script:
    """One script: ``reply`` or ``error``, and the outcome its numbers fix
    (D-44): with ``delay_ms`` below ``timeout_ms`` the call answers at once;
    otherwise it does not answer in time."""

    def __init__(self, script: Any, where: str) -> None:
        if not isinstance(script, dict):
            raise invalid_params(f"{where}: must be an object, got {_type_name(script)}")
        given = [name for name in ("reply", "error") if script.get(name) is not None]
        if len(given) != 1:
            raise invalid_params(f"{where}: needs exactly one of reply and error")
        if not isinstance(script[given[0]], str):
            raise invalid_params(f"{where}.{given[0]}: must be a string, got {_type_name(script[given[0]])}")
        self.reply: str | None = script.get("reply")
        self.error: str | None = script.get("error")
        self.delay = self._milliseconds(script, "delay_ms", where) / 1000
        self.timeout = self._milliseconds(script, "timeout_ms", where) / 1000 or DEFAULT_TIMEOUT

    @staticmethod
    def _milliseconds(script: dict, name: str, where: str) -> int:
        value = script.get(name)
        if value is None:
            return 0
        count = _count(value)
        if count is None:
            raise invalid_params(f"{where}.{name}: must be a non-negative integer number of milliseconds, got {dumps(value)}")
        return count

    def _outcome(self) -> str:
        if self.error is not None:
            raise RuntimeError(self.error)
        assert self.reply is not None
        return self.reply

    def _timed_out(self) -> TimeoutError:
        return TimeoutError(f"the summarizer did not answer within {self.timeout * 1000:g} ms")

    def _wait(self) -> float:
        """The timeout as a sleep can take it: a longer one is the longest the clock holds (D-40)."""
        return min(self.timeout, threading.TIMEOUT_MAX)

    def play(self) -> str:
        """The outcome is fixed by the numbers, never by two timers racing
        (D-44): with delay_ms < timeout_ms the reply or the error at once
        (the delay is not slept); otherwise a timeout error after timeout_ms
        (one timer), the reply never delivered."""
        if self.delay < self.timeout:
            return self._outcome()
        time.sleep(self._wait())
        raise self._timed_out()

    async def aplay(self, own_timeout: bool = False) -> str:
        """``play`` for async libraries. ``own_timeout``: the library
        enforces its own timeout and cancels the call (asyncio.wait_for, a
        task group's deadline); a call that does not answer in time then
        waits to be cancelled instead of failing on the kit's timer (D-44)."""
        if self.delay < self.timeout:
            return self._outcome()
        import asyncio  # only for async libraries: it takes a while to import

        if own_timeout:
            await asyncio.get_running_loop().create_future()  # never set: only cancellation ends it
        await asyncio.sleep(self._wait())
        raise self._timed_out()


class Summarizer:
    """The summarizer of one request, in every shape a library may want; each
    form records the call and plays the next script (the last one repeating).
    Calling the object itself is ``call``."""

    def __init__(self, scripts: Sequence[_Script]) -> None:
        self._scripts = list(scripts)
        self.calls: list[dict] = []
        self._lock = threading.Lock()

    @property
    def timeout(self) -> float:
        """Seconds to wait for the next call before treating it as failed (the kit enforces it too)."""
        return self._next().timeout

    @property
    def timeout_ms(self) -> float:
        return self.timeout * 1000

    def _next(self) -> _Script:
        return self._scripts[min(len(self.calls), len(self._scripts) - 1)]

    def _record(self, call: dict) -> _Script:
        with self._lock:  # a library may call from its own threads
            script = self._next()
            self.calls.append(call)
        return script

    def call(self, prompt: str, max_tokens: int) -> str:
        """``(prompt, max_tokens) -> str``."""
        return self._record({"prompt": prompt, "max_tokens": max_tokens}).play()

    __call__ = call

    def text(self, text: str) -> str:
        """``(text) -> str``, recorded with max_tokens 1024."""
        return self._record({"prompt": text, "max_tokens": DEFAULT_MAX_TOKENS}).play()

    def messages(self, messages: Sequence[Any]) -> str:
        """``(messages) -> str``: budget's summaryFn (CMP-1), recorded with the messages it got."""
        return self._record({"messages": list(messages)}).play()

    # The async twins take ``own_timeout=True`` from a library that enforces
    # its own timeout by cancelling the call (D-44; see _Script.aplay).

    async def acall(self, prompt: str, max_tokens: int, own_timeout: bool = False) -> str:
        return await self._record({"prompt": prompt, "max_tokens": max_tokens}).aplay(own_timeout)

    async def atext(self, text: str, own_timeout: bool = False) -> str:
        return await self._record({"prompt": text, "max_tokens": DEFAULT_MAX_TOKENS}).aplay(own_timeout)

    async def amessages(self, messages: Sequence[Any], own_timeout: bool = False) -> str:
        return await self._record({"messages": list(messages)}).aplay(own_timeout)


class _NoSummarizer(Exception):
    pass


class _LateSummarizer:
    """A summarizer fixed at construction (``Trimmer(summarize=...)``), bound
    per request to the request's script. Called in a request that scripts
    none, it fails, and the kit answers that request ``unsupported``: a
    library whose callback is fixed cannot trim "with no summarizer
    provided" (SUM-8)."""

    def __init__(self, server: _Server) -> None:
        self._server = server

    def _bound(self) -> Summarizer:
        s = self._server.summarizer
        if s is None:
            self._server.missed = True
            raise _NoSummarizer("this request provides no summarizer")
        return s

    @property
    def provided(self) -> bool:
        return self._server.summarizer is not None

    @property
    def timeout(self) -> float:
        s = self._server.summarizer
        return DEFAULT_TIMEOUT if s is None else s.timeout

    @property
    def timeout_ms(self) -> float:
        return self.timeout * 1000

    def call(self, prompt: str, max_tokens: int) -> str:
        return self._bound().call(prompt, max_tokens)

    __call__ = call

    def text(self, text: str) -> str:
        return self._bound().text(text)

    def messages(self, messages: Sequence[Any]) -> str:
        return self._bound().messages(messages)

    async def acall(self, prompt: str, max_tokens: int, own_timeout: bool = False) -> str:
        return await self._bound().acall(prompt, max_tokens, own_timeout)

    async def atext(self, text: str, own_timeout: bool = False) -> str:
        return await self._bound().atext(text, own_timeout)

    async def amessages(self, messages: Sequence[Any], own_timeout: bool = False) -> str:
        return await self._bound().amessages(messages, own_timeout)


# --------------------------------------------------------------------------
# The server


def _handler(group: Any, name: str) -> Callable | None:
    if group is None:
        return None
    found = group.get(name) if isinstance(group, dict) else getattr(group, name, None)
    return found if callable(found) else None


def _get(value: Any, name: str, default: Any = _ABSENT) -> Any:
    """A member of a handler's result: a dict's key, or an attribute."""
    if isinstance(value, dict):
        found = value.get(name, _ABSENT)
    else:
        found = getattr(value, name, _ABSENT)
    if found is _ABSENT:
        if default is _ABSENT:
            raise TypeError(f"the handler's result has no {name!r}")
        return default
    return found


def _result(value: Any) -> Any:
    return value.to_json() if hasattr(value, "to_json") and callable(value.to_json) else value


_GROUPS = {
    "window": ("create", "trim", "estimate"),
    "history": ("classify", "prune", "build"),
    "budget": ("count", "check", "prune", "compress", "prepare"),
    "tokens": ("encode",),
    "config": ("resolve",),
    "loop": ("conversation",),
}


def capabilities(window: Any = None, history: Any = None, budget: Any = None, tokens: Any = None,
                 config: Any = None, loop: Any = None, trimmers: Any = None) -> list[str]:
    """The capabilities the handlers given implement, in the protocol's order.
    A group missing one of its handlers is an error."""
    groups = {"window": window, "history": history, "budget": budget, "tokens": tokens, "config": config, "loop": loop}
    for group, names in _GROUPS.items():
        if groups[group] is not None:
            missing = [n for n in names if _handler(groups[group], n) is None]
            if missing:
                raise TypeError(f"{group}: no handler {', '.join(missing)}")
    caps = []
    if window is not None:
        caps.append("window")
        if _handler(window, "summarize"):
            caps.append("window.summarize")
    for group, cap in (("history", "history"), ("budget", "budget"), ("tokens", "tokens.cl100k"), ("config", "config"), ("loop", "loop")):
        if groups[group] is not None:
            caps.append(cap)
    if trimmers:
        caps.append("trimmer")
    return caps


class _Server:
    def __init__(self, name: str, version: str, groups: dict[str, Any], levels: Any = None, formats: Any = None,
                 trimmers: Any = None) -> None:
        self.implementation = {"name": name, "version": version}
        self.groups = groups
        self.capabilities = capabilities(**groups, trimmers=trimmers)
        self.levels = _names(levels, "levels", LEVELS)
        self.formats = _names(formats, "formats", FORMATS)
        self.trimmers = _trimmer_declarations(trimmers)
        self.windows: dict[str, Any] = {}
        self.late = _LateSummarizer(self)
        # The request being answered (one at a time).
        self.summarizer: Summarizer | None = None
        self.missed = False
        self.substitute: dict[int, Any] = {}
        self.keep: list[Any] = []  # what substitute's ids name stays alive until the answer is written
        self.methods: dict[str, Callable[[dict, dict], Any]] = {}
        w, h, b = groups["window"], groups["history"], groups["budget"]
        if w is not None:
            self.methods.update({
                "window.create": self.window_create, "window.trim": self.window_trim,
                "window.estimate": lambda p, r: {"tokens": _handler(w, "estimate")(self.messages(p, r))},
            })
            if _handler(w, "summarize"):
                self.methods["window.summarize"] = self.window_summarize
        if h is not None:
            self.methods.update({
                "history.classify": lambda p, r: _handler(h, "classify")(self.messages(p, r)),
                "history.prune": lambda p, r: _handler(h, "prune")(self.messages(p, r)),
                "history.build": lambda p, r: _handler(h, "build")(self.messages(p, r), _max_messages_param(p)),
            })
        if groups["tokens"] is not None:
            self.methods["tokens.encode"] = self.tokens_encode
        if b is not None:
            self.methods.update({
                "budget.count": lambda p, r: _handler(b, "count")(self.messages(p, r)),
                "budget.check": lambda p, r: self.call_budget("check", p, r, _model_param(p), _limits_param(p)),
                "budget.prune": lambda p, r: self.call_budget("prune", p, r, _model_param(p), _limits_param(p), _target_ratio_param(p)),
                "budget.compress": self.budget_compress,
                "budget.prepare": self.budget_prepare,
            })
        if groups["config"] is not None:
            self.methods["config.resolve"] = lambda p, r: _handler(groups["config"], "resolve")(*_config_file_param(p))
        if groups["loop"] is not None:
            self.methods["loop.run"] = self.loop_run
        if self.trimmers is not None:
            self.methods["trimmer.trim"] = self.trimmer_trim
            self.methods["trimmer.count"] = self.trimmer_count

    # -- params the library sees, paired with the params received -----------

    def link(self, given: Sequence[Any], received: Any) -> None:
        if isinstance(received, list):
            for g, r in zip(given, received):
                self.substitute[id(g)] = r
            self.keep.append(given)

    def messages(self, params: dict, received: dict) -> list:
        messages = _messages_param(params)
        self.link(messages, received.get("messages"))
        return messages

    def scripted(self, scripts: list[_Script]) -> Summarizer | None:
        self.summarizer = Summarizer(scripts) if scripts else None
        return self.summarizer

    def required_summarizer(self, params: dict) -> Summarizer:
        s = self.scripted([_Script(_member(params, "summarizer"), "params.summarizer")])
        assert s is not None
        return s

    def calls(self) -> list:
        return [] if self.summarizer is None else self.summarizer.calls

    # -- methods ---------------------------------------------------------------

    def window_create(self, params: dict, received: dict) -> Any:
        created = _handler(self.groups["window"], "create")(params.get("config"), self.late)
        return self.then(created, self._created)

    def _created(self, created: Any) -> dict:
        handle = f"w{len(self.windows) + 1}"
        self.windows[handle] = _get(created, "window")
        return {"window": handle, "config": _get(created, "config"), "warnings": _get(created, "warnings", [])}

    def window_trim(self, params: dict, received: dict) -> Any:
        handle = _member(params, "window")
        if not isinstance(handle, str):
            raise invalid_params("params.window: must be a window handle (a string)")
        if handle not in self.windows:
            raise invalid_params(f"params.window: unknown window {dumps(handle)}")
        messages = self.messages(params, received)
        s = None
        if "window.summarize" in self.capabilities and not _absent(params, "summarizer"):
            s = self.scripted([_Script(params["summarizer"], "params.summarizer")])
        trimmed = _handler(self.groups["window"], "trim")(self.windows[handle], messages, s)
        return self.then(trimmed, self._trimmed)

    def _trimmed(self, r: Any) -> dict:
        r = _result(r)
        return {
            "trimmed": _get(r, "trimmed"), "evicted": _get(r, "evicted"), "metrics": _get(r, "metrics"),
            "warnings": _get(r, "warnings", []), "summary": _get(r, "summary", None), "summarizer_calls": self.calls(),
        }

    def window_summarize(self, params: dict, received: dict) -> Any:
        messages = self.messages(params, received)
        summary = _handler(self.groups["window"], "summarize")(messages, self.required_summarizer(params))
        return self.then(summary, lambda text: {"summary": text, "summarizer_calls": self.calls()})

    def trimmer_trim(self, params: dict, received: dict) -> Any:
        assert self.trimmers is not None
        name = _string_param(params, "trimmer")
        trim = self.trimmers[1].get(name)
        if trim is None:
            raise invalid_params(f"params.trimmer: unknown trimmer {dumps(name)} (declared: {', '.join(self.trimmers[1])})")
        limit = _count_param(params, "limit")
        kept = trim(self.messages(params, received), limit)

        def answer(kept: Any) -> dict:
            if not isinstance(kept, (list, tuple)):
                raise TypeError(f"trimmer {name} returned {_type_name(kept)}, not a list of messages")
            return {"messages": list(kept)}

        return self.then(kept, answer)

    def trimmer_count(self, params: dict, received: dict) -> Any:
        assert self.trimmers is not None
        name = _string_param(params, "trimmer")
        count = self.trimmers[2].get(name)
        if count is None:
            raise invalid_params(f'params.trimmer: no trimmer {dumps(name)} declares counter "native"')

        def answer(n: Any) -> dict:
            if not isinstance(n, int) or isinstance(n, bool):
                raise TypeError(f"the native counter of {name} returned {_type_name(n)}, not an integer")
            return {"count": n}

        return self.then(count(self.messages(params, received)), answer)

    def tokens_encode(self, params: dict, received: dict) -> Any:
        ids = _handler(self.groups["tokens"], "encode")(_string_param(params, "text"))
        return self.then(ids, lambda ids: {"tokens": list(ids), "count": len(ids)})

    def call_budget(self, name: str, params: dict, received: dict, *args: Any) -> Any:
        return _handler(self.groups["budget"], name)(self.messages(params, received), *args)

    def budget_compress(self, params: dict, received: dict) -> Any:
        messages = self.messages(params, received)
        out = _handler(self.groups["budget"], "compress")(messages, self.required_summarizer(params))
        return self.then(out, lambda m: {"messages": m, "summarizer_calls": self.calls()})

    def budget_prepare(self, params: dict, received: dict) -> Any:
        model, limits = _model_param(params), _limits_param(params)
        messages = self.messages(params, received)
        out = _handler(self.groups["budget"], "prepare")(messages, model, limits, self.required_summarizer(params))
        return self.then(out, lambda r: {"messages": _get(_result(r), "messages"), "events": _get(_result(r), "events"),
                                         "summarizer_calls": self.calls()})

    async def loop_run(self, params: dict, received: dict) -> dict:
        """Drives the library's conversation through the scripted run (LOOP-1 – LOOP-6)."""
        fmt, text = _config_file_param(params)
        places: dict[int, str] = {}
        initial, iterations = _scripted_run(params, places)
        self.link_run(initial, iterations, received)
        scripts = [] if _absent(params, "summarizers") else _array(params, "summarizers", "params")
        s = self.scripted([_Script(x, f"params.summarizers[{i}]") for i, x in enumerate(scripts)])
        conversation = await _settle(_handler(self.groups["loop"], "conversation")((fmt, text), initial, s))
        requests, results = [], []
        i = 0
        try:
            for prompt, turns in iterations:
                await _settle(conversation.start_iteration(prompt))
                for response, tool_results in turns:
                    requests.append({"iteration": i, "messages": await _settle(conversation.request())})
                    await _settle(conversation.append(response, *tool_results))
                results.append(_result(await _settle(conversation.finish_iteration())))
                i += 1
        except Exception as e:  # noqa: BLE001 - re-raised unless it is a broken structure to place
            state = getattr(conversation, "messages", None)
            if getattr(e, "kind", None) != "invalid_message" or state is None:
                raise
            state = list(state)

            def place(m: re.Match[str]) -> str:
                k = int(m.group(1))
                return places.get(id(state[k]), f"the conversation's {m.group(0)}") if k < len(state) else m.group(0)

            raise invalid_message(f"iteration {i}: " + re.sub(r"messages\[(\d+)\]", place, str(e))) from None
        return {"config": _get(conversation, "config"), "requests": requests, "iterations": results,
                "summarizer_calls": self.calls()}

    def link_run(self, initial: list, iterations: list, received: dict) -> None:
        self.link(initial, received.get("initial"))
        for (prompt, turns), rit in zip(iterations, received.get("iterations") or []):
            self.link([prompt], [rit["prompt"]])
            for (response, results), rturn in zip(turns, rit["turns"]):
                self.link([response], [rturn["response"]])
                self.link(results, rturn.get("results"))

    # -- one request ----------------------------------------------------------

    def then(self, value: Any, f: Callable[[Any], Any]) -> Any:
        """f(value), or, for an awaitable value, a coroutine awaiting it first."""
        if inspect.isawaitable(value):
            async def chained() -> Any:
                return f(await value)
            return chained()
        return f(value)

    def dispatch(self, method: str, req: dict, received: dict) -> Any:
        if method == "initialize":
            params = req.get("params")
            if not isinstance(params, dict):
                raise invalid_params("params: " + ("missing" if params is None else "must be an object"))
            protocol = params.get("protocol")
            if not (type(protocol) in (int, float) and protocol == PROTOCOL):
                shown = dumps(received["params"].get("protocol")) if "protocol" in params else "nothing"
                raise invalid_params(f"params.protocol: unsupported protocol {shown}, this implementation speaks {PROTOCOL}")
            result = {"protocol": PROTOCOL, "implementation": self.implementation, "capabilities": self.capabilities}
            if self.levels is not None:
                result["levels"] = self.levels
            if self.formats is not None:
                result["formats"] = self.formats
            if self.trimmers is not None:
                result["trimmers"] = self.trimmers[0]
            return result
        if method == "shutdown":
            return None
        handler = self.methods.get(method)
        if handler is None:
            raise KitError("method_not_found", f"unknown method {dumps(method)}")
        params = req.get("params")
        if params is None and method == "window.create":
            params = {}
        elif params is None:
            raise invalid_params("params: missing")
        elif not isinstance(params, dict):
            raise invalid_params("params: must be an object")
        rparams = received.get("params")
        return handler(params, rparams if isinstance(rparams, dict) else {})

    def handle(self, line: str) -> tuple[dict | None, bool]:
        """Answers one line: (the response, None for a notification; whether to exit)."""
        try:
            received = loads(line)  # numbers exact: what answers are written with
            req = loads(line, exact=False)  # what the library sees
        except ValueError as e:
            return _error_response(None, _wire_error("parse_error", f"not JSON: {e}")), False
        except RecursionError:
            return _error_response(None, _wire_error("internal_error", "the request is nested too deeply to parse")), False
        if not isinstance(req, dict):
            return _error_response(None, _wire_error("invalid_request", "a request must be a JSON object")), False
        notification = "id" not in req
        id_ = received.get("id")
        if not (id_ is None or isinstance(id_, (str, JSONNumber))):
            return _error_response(None, _wire_error("invalid_request", "id: must be a string, a number or null")), False
        if req.get("jsonrpc") != "2.0":
            return _error_response(id_, _wire_error("invalid_request", 'jsonrpc: must be "2.0"')), False
        method = req.get("method")
        if not isinstance(method, str):
            return _error_response(id_, _wire_error("invalid_request", "method: must be a string")), False

        self.summarizer, self.missed, self.substitute, self.keep = None, False, {}, [req]
        try:
            result = self.dispatch(method, req, received)
            if inspect.isawaitable(result):
                import asyncio  # only for async handlers: it takes a while to import

                result = asyncio.run(_settle(result))
            if self.missed:
                raise _missed()
            response = {"jsonrpc": "2.0", "id": id_, "result": result}
        except Exception as e:  # noqa: BLE001 - whatever a handler raises is answered
            err = _from_raised(_missed() if self.missed else e)
            if err["data"]["kind"] == "context_window_exhausted" and self.summarizer is not None:
                err["data"]["summarizer_calls"] = len(self.summarizer.calls)
            response = _error_response(id_, err)
        return (None if notification else response), method == "shutdown"

    def write(self, response: dict) -> bytes:
        try:
            out = dumps(response, self.substitute)
        except (TypeError, RecursionError, ValueError) as e:
            out = dumps(_error_response(response["id"], _wire_error("internal_error", f"cannot write the response: {e}")))
        return out.encode("ascii") + b"\n"


async def _settle(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _missed() -> KitError:
    return unsupported("the library called the summarizer it was constructed with, but this request provides none (SUM-8)")


def _error_response(id_: Any, error: dict) -> dict:
    return {"jsonrpc": "2.0", "id": id_, "error": error}


def serve(*, name: str, version: str, window: Any = None, history: Any = None, budget: Any = None,
          tokens: Any = None, config: Any = None, loop: Any = None, levels: Sequence[str] | None = None,
          formats: Sequence[str] | None = None, trimmers: Sequence[Any] | None = None,
          stdin: Any = None, stdout: Any = None) -> int:
    """Serves the protocol with the handlers given until ``shutdown`` or the
    end of input; returns the exit status (0). ``levels`` and ``formats``
    declare what the implementation does (absent: all; D-42); ``trimmers``
    declares capability ``trimmer`` (ANY-10). ``stdin``/``stdout`` are
    binary streams (default: the process's)."""
    server = _Server(name, version, {"window": window, "history": history, "budget": budget,
                                     "tokens": tokens, "config": config, "loop": loop},
                     levels=levels, formats=formats, trimmers=trimmers)
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    while True:
        raw = stdin.readline()
        if not raw:
            return 0  # end of input: exit, whether or not shutdown came first
        # Bytes that are not UTF-8 become lone surrogates, which MSG-1 rejects
        # inside a message and which are not JSON anywhere else.
        line = raw.decode("utf-8", "surrogateescape")
        if line.strip(" \t\r\n") == "":
            continue
        response, last = server.handle(line)
        if response is not None:
            stdout.write(server.write(response))
            stdout.flush()
        if last:
            return 0


def run(**options: Any) -> None:
    """``serve`` as a program: on a thread with a large stack (content may be
    nested deeply; the parser and the writers recurse or iterate on it), then
    exits with its status at once, after ``shutdown`` or at the end of input:
    output flushed, then ``os._exit``, without the interpreter's teardown
    (which waits for the library's threads and collects every object), so
    that the exit is prompt (protocol.md, "Lifecycle")."""
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024 * 1024)
    status = [1]

    def main() -> None:
        status[0] = serve(**options)

    t = threading.Thread(target=main, name="convspec-kit")
    t.start()
    threading.stack_size(0)  # the library's own threads need no such stack
    t.join()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can be said
            pass
    os._exit(status[0])
