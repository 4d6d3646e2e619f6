"""Reading an execution config file, as specified by convspec (spec/SPEC.md
section 8b, capability ``config``): ``resolve_config_file(format, text)``.

One YAML or JSON document. The document as a whole is checked when it is
read (CONF-6): valid YAML 1.2 (core schema) or JSON, one document, no mapping
giving a key twice, no merge key (``<<``), no key JSON cannot hold. A value
JSON cannot hold (``.inf``, ``.nan``, a tag outside the core schema such as
``!!binary``) is refused only where it is one of our settings: the host's
own members are not checked, whatever they hold (CONF-5).

YAML is read with ``ruamel.yaml`` (Debian's ``python3-ruamel.yaml``, or
``pip install ruamel.yaml``), with a resolver of the YAML 1.2 core schema
alone (``yes`` is a string, ``1_000`` too); JSON with the standard library.
"""

from __future__ import annotations

import json
import json.scanner
import math
import re
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import ScalarEvent
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.resolver import VersionedResolver

from convspec_window import DEFAULTS, ConversationWindow, InvalidConfigError, number_to_js_string

CONFIG_SHORTHAND_OVERRIDDEN = "config_shorthand_overridden"
SHORTHAND = "execution.max_conversation_messages"
BLOCK = "execution.conversation"
_MAX_COUNT = 2**53 - 1


class ConfigFileError(InvalidConfigError):
    """A config file breaks CONF-4 or CONF-6; ``path`` is the dotted path of the
    offending member ("" for the file as a whole), and the message starts with it."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(f"{path or 'config file'}: {detail}")
        self.path = path


def _member_path(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


# --------------------------------------------------------------------------
# The document as nodes: ("scalar", value, source), ("mapping", names, get), ("list",)


class _Scalar:
    kind = "scalar"

    def __init__(self, value: Any, source: str | None = None) -> None:
        self.value, self.source = value, source


class _Mapping:
    kind = "mapping"

    def __init__(self, names: list[str], get: Any) -> None:
        self.names, self._get = names, get

    def member(self, name: str, path: str) -> Any:
        """The member ``name`` or None; raises ConfigFileError naming ``path`` for a value JSON cannot hold."""
        return self._get(name, path) if name in self.names else None


class _List:
    kind = "list"


def _describe(node: Any) -> str:
    if node.kind != "scalar":
        return f"a {node.kind}"
    v = node.value
    if isinstance(v, str):
        text = json.dumps(v, ensure_ascii=False)
        return "the string " + (text if len(text) <= 60 else text[:57] + "...")
    if v is None or isinstance(v, bool):
        return json.dumps(v)
    return node.source if node.source is not None else number_to_js_string(float(v))


# --------------------------------------------------------------------------
# JSON


class _Pairs(list):
    """An object's members as given, duplicates included."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _number(text: str) -> _Scalar:
    integer = re.fullmatch(r"-?[0-9]+", text) is not None
    return _Scalar(int(text) if integer and len(text) <= 4000 else float(text), text)


_JSON = json.JSONDecoder(object_pairs_hook=_Pairs, parse_int=_number, parse_float=_number, parse_constant=_reject_constant)
_DEEP_JSON = json.JSONDecoder(object_pairs_hook=_Pairs, parse_int=_number, parse_float=_number, parse_constant=_reject_constant)
_DEEP_JSON.scan_once = json.scanner.py_make_scanner(_DEEP_JSON)  # type: ignore[attr-defined]


def _json_node(value: Any) -> Any:
    if isinstance(value, _Pairs):
        members = dict(value)
        return _Mapping([k for k, _ in value], lambda name, path: _json_node(members[name]))
    if isinstance(value, list):
        return _List()
    return value if isinstance(value, _Scalar) else _Scalar(value)


def _read_json(text: str) -> Any:
    if text.strip(" \t\n\r") == "":
        return None  # an empty file (CONF-2)
    try:
        try:
            doc = _JSON.decode(text)
        except RecursionError:
            doc = _DEEP_JSON.decode(text)
    except ValueError as e:
        raise ConfigFileError("", f"not valid JSON: {e}") from None
    stack = [(doc, "")]  # CONF-6: no member given twice, anywhere
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Pairs):
            seen = set()
            for name, item in value:
                if name in seen:
                    raise ConfigFileError(_member_path(path, name), "is given twice in one object")
                seen.add(name)
                stack.append((item, _member_path(path, name)))
        elif isinstance(value, list):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(value))
    return _json_node(doc)


# --------------------------------------------------------------------------
# YAML

CORE = "tag:yaml.org,2002:"
_CORE_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_CORE_FLOAT = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
_CORE_RESOLVERS: dict[Any, list] = {}
for _tag, _pattern, _first in (
    ("null", re.compile(r"^(?:~|null|Null|NULL|)$"), ["~", "n", "N", ""]),
    ("bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")),
    ("int", _CORE_INT, list("-+0123456789")),
    ("float", _CORE_FLOAT, list("-+.0123456789")),
):
    for _c in _first:
        _CORE_RESOLVERS.setdefault(_c, []).append((CORE + _tag, _pattern))


class _CoreResolver(VersionedResolver):
    """The implicit tags of the YAML 1.2 core schema, and nothing else."""

    @property
    def versioned_resolver(self) -> Any:
        return {k: list(v) for k, v in _CORE_RESOLVERS.items()}


def _key_name(node: Any) -> str | None:
    """A mapping key's name as JSON would hold it; None for a collection."""
    if not isinstance(node, ScalarNode):
        return None
    v = node.value
    tag = node.tag
    if tag == CORE + "null":
        return "null"
    if tag == CORE + "bool":
        return v.lower()
    if tag in (CORE + "int", CORE + "float") and (_CORE_INT.match(v) or _CORE_FLOAT.match(v)):
        x = _yaml_number(v)
        return number_to_js_string(float(x)) if isinstance(x, float) else str(x)
    return v


def _yaml_number(text: str) -> Any:
    t = text.lower()
    if t in (".inf", "+.inf", "-.inf"):
        return -math.inf if t.startswith("-") else math.inf
    if t == ".nan":
        return math.nan
    if t.startswith("0o"):
        return int(t[2:], 8)
    if t.startswith("0x"):
        return int(t[2:], 16)
    return int(t) if re.fullmatch(r"[-+]?[0-9]+", t) else float(t)


def _check_yaml(root: Any) -> None:
    """CONF-6 in every mapping, the host's included: no key twice, no merge
    key, no key JSON cannot hold. Each node once (an alias is its anchor's node)."""
    stack, seen_nodes = [(root, "")], set()
    while stack:
        node, path = stack.pop()
        if id(node) in seen_nodes:
            continue
        seen_nodes.add(id(node))
        if isinstance(node, MappingNode):
            names: dict[str, int] = {}
            for key, value in node.value:
                line = key.start_mark.line + 1
                if isinstance(key, ScalarNode) and (key.tag == CORE + "merge" or (key.style is None and key.value == "<<")):
                    raise ConfigFileError(path, f"line {line}: merge keys (<<) are not allowed in a config file (YAML 1.2 has none)")
                name = _key_name(key)
                if name is None:
                    raise ConfigFileError(path, f"line {line}: a key that is a mapping or a list, which JSON cannot hold")
                if name in names:
                    raise ConfigFileError(_member_path(path, name), f"is given twice in one mapping (lines {names[name]} and {line})")
                names[name] = line
                stack.append((value, _member_path(path, name)))
        elif isinstance(node, SequenceNode):
            stack.extend((item, f"{path}[{i}]") for i, item in enumerate(node.value))


_CORE_TEXT = {
    CORE + "null": re.compile(r"^(?:~|null|Null|NULL|)$"),
    CORE + "bool": re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
    CORE + "int": _CORE_INT,
    CORE + "float": _CORE_FLOAT,
}


def _check_values(root: Any, untagged: set) -> None:
    """D-48 over the whole document, the host's members included: a core tag
    on a text it does not match fails at its path, and an alias inside the
    node it names fails at the alias's path. Each node is entered once; one
    met again while it is being walked is such an alias."""
    state: dict[int, str] = {}  # "open" while its children are walked, then "done"
    stack: list = [(root, "", False)]
    while stack:
        node, path, leaving = stack.pop()
        if leaving:
            state[id(node)] = "done"
            continue
        seen = state.get(id(node))
        if seen == "open":
            raise ConfigFileError(path, f"line {node.start_mark.line + 1}: an alias refers to the node it is in")
        if seen == "done":
            continue
        if isinstance(node, ScalarNode):
            state[id(node)] = "done"
            pattern = _CORE_TEXT.get(node.tag)
            if pattern is not None and not _is_untagged(node, untagged) and not pattern.match(node.value):
                raise ConfigFileError(path, f"line {node.start_mark.line + 1}: {json.dumps(node.value)} is not a {node.tag.replace(CORE, '!!')}")
            continue
        state[id(node)] = "open"
        stack.append((node, path, True))
        if isinstance(node, MappingNode):
            children = [(v, _member_path(path, _key_name(k) or "")) for k, v in node.value]
        else:
            children = [(item, f"{path}[{i}]") for i, item in enumerate(node.value)]
        stack.extend((child, p, False) for child, p in reversed(children))


def _is_untagged(node: Any, untagged: set) -> bool:
    """Whether a scalar carries the non-specific tag "!", which makes it a
    string (YAML 1.2, 6.9.1): the reader resolves `! 5` as the integer 5."""
    return (node.start_mark.line, node.start_mark.column) in untagged


def _yaml_node(node: Any, path: str, untagged: set = frozenset()) -> Any:
    at = f"line {node.start_mark.line + 1}"
    tag = node.tag
    if tag != "!" and tag.replace(CORE, "") not in ("str", "int", "float", "bool", "null", "map", "seq"):
        raise ConfigFileError(path, f"{at}: the tag {tag.replace(CORE, '!!')} is not in the YAML 1.2 core schema; JSON cannot hold its value")
    if isinstance(node, MappingNode):
        pairs = {_key_name(k): v for k, v in node.value}
        return _Mapping(list(pairs), lambda name, p: _yaml_node(pairs[name], p, untagged))
    if isinstance(node, SequenceNode):
        return _List()
    v = node.value
    if _is_untagged(node, untagged):
        return _Scalar(v)
    if tag == CORE + "null":
        return _Scalar(None)
    if tag == CORE + "bool":
        if v.lower() not in ("true", "false"):
            raise ConfigFileError(path, f"{at}: {json.dumps(v)} is not a !!bool")
        return _Scalar(v.lower() == "true")
    if tag in (CORE + "int", CORE + "float"):
        if not (_CORE_INT.match(v) or _CORE_FLOAT.match(v)):
            raise ConfigFileError(path, f"{at}: {json.dumps(v)} is not a {tag.replace(CORE, '!!')}")
        x = _yaml_number(v)
        if isinstance(x, float) and not math.isfinite(x):
            raise ConfigFileError(path, f"{at}: {v} is not a number a config can hold (JSON has no infinity or NaN)")
        return _Scalar(x, v)
    return _Scalar(v)


def _read_yaml(text: str) -> Any:
    yaml = YAML(typ="safe", pure=True)
    yaml.Resolver = _CoreResolver
    yaml.version = (1, 2)
    try:
        docs = list(yaml.compose_all(text))
        untagged = {(e.start_mark.line, e.start_mark.column) for e in yaml.parse(text) if isinstance(e, ScalarEvent) and e.tag == "!"}
    except YAMLError as e:
        first = str(e).strip().split("\n")
        raise ConfigFileError("", "not valid YAML: " + "; ".join(line.strip() for line in first if line.strip())) from None
    except RecursionError:
        raise ConfigFileError("", "not valid YAML: nested deeper than this reader can follow") from None
    if not docs:
        return None  # no document at all (CONF-2)
    if len(docs) > 1:
        raise ConfigFileError("", f"holds {len(docs)} YAML documents; a config file is one document")
    _check_yaml(docs[0])
    _check_values(docs[0], untagged)
    return _yaml_node(docs[0], "", untagged)


# --------------------------------------------------------------------------
# Resolution (CONF-1 – CONF-7)


def _count(node: Any, path: str) -> int | None:
    if node is None or (node.kind == "scalar" and node.value is None):
        return None
    v = node.value if node.kind == "scalar" else None
    ok = not isinstance(v, bool) and isinstance(v, (int, float))
    if ok and isinstance(v, float):
        ok = math.isfinite(v) and v.is_integer()
    if not ok or not 0 <= v <= _MAX_COUNT:
        raise ConfigFileError(path, f"must be a non-negative integer (at most 2^53 - 1), got {_describe(node)}")
    return int(v)


def _mapping(node: Any, path: str, what: str) -> Any:
    if node is None or (node.kind == "scalar" and node.value is None):
        return None
    if node.kind != "mapping":
        raise ConfigFileError(path, f"must be a mapping{what}, got {_describe(node)}")
    return node


def resolve_config_file(fmt: str, text: str) -> dict:
    """The effective configuration of a config file, where ``max_messages``
    came from, and the warnings; raises ConfigFileError."""
    if re.search("[\ud800-\udfff]", text):
        raise ConfigFileError("", "not valid Unicode text (an unpaired surrogate, or bytes that are not UTF-8)")
    root = _read_json(text) if fmt == "json" else _read_yaml(text)
    config, source, warnings = dict(DEFAULTS), "default", []
    top = None if root is None or (root.kind == "scalar" and root.value is None) else root
    if top is not None and top.kind != "mapping":
        raise ConfigFileError("", f"the top level must be a mapping, got {_describe(top)}")
    execution = _mapping(top.member("execution", "execution") if top else None, "execution", "")
    shorthand = _count(execution.member("max_conversation_messages", SHORTHAND) if execution else None, SHORTHAND)
    block = _mapping(execution.member("conversation", BLOCK) if execution else None, BLOCK, f" of {', '.join(DEFAULTS)}")
    if shorthand is not None:
        config["max_messages"], source = shorthand, "shorthand"
    for name in block.names if block else []:
        path = _member_path(BLOCK, name)
        if name not in DEFAULTS:
            raise ConfigFileError(path, f"unknown member (known: {', '.join(DEFAULTS)})")
        node = block.member(name, path)
        if name == "summarize_on_trim":
            if node.kind == "scalar" and node.value is None:
                continue
            if node.kind != "scalar" or not isinstance(node.value, bool):
                raise ConfigFileError(path, f"must be a boolean (true or false), got {_describe(node)}")
            config[name] = node.value
            continue
        value = _count(node, path)
        if value is None:
            continue
        config[name] = value  # CONF-3: every member the block sets wins
        if name == "max_messages":
            source = "conversation"
            if shorthand is not None and shorthand != value:
                warnings.append({"code": CONFIG_SHORTHAND_OVERRIDDEN,
                                 "message": f"{BLOCK}.max_messages ({value}) overrides {SHORTHAND} ({shorthand}); the cap is {value}"})
    # CONF-7: then the warnings of a window created with this configuration (CFG-6).
    warnings.extend(w.to_json() for w in ConversationWindow(config).warnings)
    return {"config": config, "max_messages_from": source, "warnings": warnings}
