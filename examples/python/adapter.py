#!/usr/bin/env python3
"""The convspec protocol adapter (spec/protocol.md) for convspec_window and
convspec_history.

Newline-delimited JSON-RPC 2.0 on stdin/stdout; standard library only.

    python3 adapter.py
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Callable

sys.dont_write_bytecode = True  # leave no __pycache__ next to the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from convspec_history import (  # noqa: E402
    build_llm_messages,
    classify_conversation,
    parse_max_messages,
    prune_orphaned_prompts,
)
from convspec_window import (  # noqa: E402
    DEFAULT_SUMMARIZER_TIMEOUT,
    ConversationWindow,
    ConvspecError,
    JSONNumber,
    dumps,
    estimate_tokens,
    loads,
    summarize,
)

PROTOCOL = 1
IMPLEMENTATION = {"name": "convspec-example-python", "version": "0.1.0"}

CODES = {
    "parse_error": -32700,
    "invalid_request": -32600,
    "method_not_found": -32601,
    "invalid_params": -32602,
    "internal_error": -32603,
    "invalid_config": -32001,
    "invalid_message": -32002,
    "summarizer_failed": -32007,
}

# `budget` and `tokens.cl100k` are left out on purpose: they need exact
# cl100k_base token counts, and the standard library has no such tokenizer.
CAPABILITIES = ["window", "window.summarize", "history"]


class RpcError(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_NO_PARAMS = object()


class ScriptedSummarizer:
    """The summarizer callback as the harness scripts it (protocol.md, "The
    scripted summarizer"): answers after ``delay_ms`` with ``reply``, or fails
    with ``error``; records every call made to it."""

    def __init__(self, script: Any) -> None:
        if not isinstance(script, dict):
            raise RpcError("invalid_params", "params.summarizer: must be an object")
        given = [name for name in ("reply", "error") if script.get(name) is not None]
        if len(given) != 1:
            raise RpcError("invalid_params", "params.summarizer: needs exactly one of reply and error")
        if not isinstance(script[given[0]], str):
            raise RpcError("invalid_params", f"params.summarizer.{given[0]}: must be a string")
        self.reply: str | None = script.get("reply")
        self.error: str | None = script.get("error")
        self.delay = self._milliseconds(script, "delay_ms", 0) / 1000
        self.timeout = self._milliseconds(script, "timeout_ms", DEFAULT_SUMMARIZER_TIMEOUT * 1000) / 1000
        self.calls: list[dict] = []
        self._lock = threading.Lock()

    @staticmethod
    def _milliseconds(script: dict, name: str, default: float) -> float:
        value = script.get(name)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (JSONNumber, int, float)) or not (0 <= float(value) < float("inf")):
            raise RpcError("invalid_params", f"params.summarizer.{name}: must be a non-negative number of milliseconds")
        return float(value)

    def __call__(self, prompt: str, max_tokens: int) -> str:
        with self._lock:
            self.calls.append({"prompt": prompt, "max_tokens": max_tokens})
        time.sleep(self.delay)
        if self.error is not None:
            raise RuntimeError(self.error)
        assert self.reply is not None
        return self.reply


class Adapter:
    def __init__(self) -> None:
        self.windows: dict[str, ConversationWindow] = {}
        self.methods: dict[str, Callable[[Any], Any]] = {
            "initialize": self.initialize,
            "shutdown": lambda params: None,
            "window.create": self.window_create,
            "window.trim": self.window_trim,
            "window.estimate": self.window_estimate,
            "window.summarize": self.window_summarize,
            "history.classify": self.history_classify,
            "history.prune": self.history_prune,
            "history.build": self.history_build,
        }

    # -- methods ------------------------------------------------------------

    @staticmethod
    def _object_params(params: Any, required: bool = True) -> dict:
        if params is _NO_PARAMS:
            if required:
                raise RpcError("invalid_params", "params: missing")
            return {}
        if not isinstance(params, dict):
            raise RpcError("invalid_params", "params: must be an object")
        return params

    @staticmethod
    def _messages(params: dict) -> list:
        if "messages" not in params:
            raise RpcError("invalid_params", "params.messages: missing")
        messages = params["messages"]
        if not isinstance(messages, list):
            raise RpcError("invalid_params", "params.messages: must be an array of messages")
        return messages

    def initialize(self, params: Any) -> Any:
        params = self._object_params(params)
        protocol = params.get("protocol")
        if not (isinstance(protocol, JSONNumber) and protocol.value == PROTOCOL):
            shown = dumps(protocol) if "protocol" in params else "nothing"
            raise RpcError(
                "invalid_params",
                f"params.protocol: unsupported protocol {shown}, this implementation speaks {PROTOCOL}",
            )
        return {"protocol": PROTOCOL, "implementation": IMPLEMENTATION, "capabilities": CAPABILITIES}

    def window_create(self, params: Any) -> Any:
        params = self._object_params(params, required=False)
        # `config` absent or null is the configuration {} (protocol.md, CFG-2).
        window = ConversationWindow(params.get("config"))
        handle = f"w{len(self.windows) + 1}"
        self.windows[handle] = window
        return {
            "window": handle,
            "config": window.config,
            "warnings": [w.to_json() for w in window.warnings],
        }

    def window_trim(self, params: Any) -> Any:
        params = self._object_params(params)
        handle = params.get("window")
        if not isinstance(handle, str):
            raise RpcError("invalid_params", "params.window: must be a window handle (a string)")
        window = self.windows.get(handle)
        if window is None:
            raise RpcError("invalid_params", f"params.window: unknown window {dumps(handle)}")
        messages = self._messages(params)
        if params.get("summarizer") is None:
            return {**window.trim(messages).to_json(), "summarizer_calls": []}
        summarizer = ScriptedSummarizer(params["summarizer"])
        result = window.trim(messages, summarizer, summarizer.timeout)
        return {**result.to_json(), "summarizer_calls": summarizer.calls}

    def window_estimate(self, params: Any) -> Any:
        params = self._object_params(params)
        return {"tokens": estimate_tokens(self._messages(params))}

    def window_summarize(self, params: Any) -> Any:
        params = self._object_params(params)
        messages = self._messages(params)
        if params.get("summarizer") is None:
            raise RpcError("invalid_params", "params.summarizer: missing")
        summarizer = ScriptedSummarizer(params["summarizer"])
        return {"summary": summarize(messages, summarizer, summarizer.timeout), "summarizer_calls": summarizer.calls}

    def history_classify(self, params: Any) -> Any:
        result = classify_conversation(self._messages(self._object_params(params)))
        return {"classes": result.classes, "units": [list(u) for u in result.units]}

    def history_prune(self, params: Any) -> Any:
        messages, removed = prune_orphaned_prompts(self._messages(self._object_params(params)))
        return {"messages": messages, "removed": removed}

    def history_build(self, params: Any) -> Any:
        params = self._object_params(params)
        messages = self._messages(params)
        if "max_messages" not in params:
            raise RpcError("invalid_params", "params.max_messages: missing")
        try:
            max_messages = parse_max_messages(params["max_messages"])
        except ValueError as e:
            raise RpcError("invalid_params", f"params.max_messages: {e}, got {dumps(params['max_messages'])}") from None
        return build_llm_messages(messages, max_messages).to_json()

    # -- one line -------------------------------------------------------------

    @staticmethod
    def _error(id_: Any, kind: str, message: str) -> dict:
        return {
            "jsonrpc": "2.0",
            "id": id_,
            "error": {"code": CODES[kind], "message": message, "data": {"kind": kind}},
        }

    def handle(self, line: str) -> tuple[dict | None, bool]:
        """Answers one line: (the response or None for a notification, whether to exit)."""
        try:
            req = loads(line)
        except ValueError as e:
            return self._error(None, "parse_error", f"not JSON: {e}"), False
        except RecursionError:
            # Valid JSON, perhaps, but nested deeper than the parser can go;
            # the id cannot be read.
            return self._error(None, "internal_error", "the request is nested too deeply to parse"), False
        if not isinstance(req, dict):
            return self._error(None, "invalid_request", "a request must be a JSON object"), False
        notification = "id" not in req
        id_ = req.get("id")
        if not (id_ is None or isinstance(id_, (str, JSONNumber))):
            return self._error(None, "invalid_request", "id: must be a string, a number or null"), False
        if req.get("jsonrpc") != "2.0":
            return self._error(id_, "invalid_request", 'jsonrpc: must be "2.0"'), False
        method = req.get("method")
        if not isinstance(method, str):
            return self._error(id_, "invalid_request", "method: must be a string"), False

        handler = self.methods.get(method)
        if handler is None:
            response = self._error(id_, "method_not_found", f"unknown method {dumps(method)}")
        else:
            try:
                response = {"jsonrpc": "2.0", "id": id_, "result": handler(req.get("params", _NO_PARAMS))}
            except (RpcError, ConvspecError) as e:
                response = self._error(id_, e.kind, str(e))
            except Exception as e:  # a bug, or content nested too deep
                response = self._error(id_, "internal_error", f"{type(e).__name__}: {e}")
        return (None if notification else response), method == "shutdown"


def _is_blank(line: str) -> bool:
    return line.strip(" \t\r\n") == ""


def serve(stdin: Any = None, stdout: Any = None) -> int:
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    adapter = Adapter()
    while True:
        raw = stdin.readline()
        if not raw:
            return 0  # end of input: exit, whether or not shutdown came first
        # Bytes that are not UTF-8 become lone surrogates, which MSG-1 rejects
        # inside a message and which are not JSON anywhere else.
        line = raw.decode("utf-8", "surrogateescape")
        if _is_blank(line):
            continue
        response, exit_ = adapter.handle(line)
        if response is not None:
            try:
                out = dumps(response)
            except (TypeError, RecursionError) as e:
                out = dumps(Adapter._error(response["id"], "internal_error", f"cannot write the response: {e}"))
            stdout.write(out.encode("ascii") + b"\n")
            stdout.flush()
        if exit_:
            return 0


def main() -> int:
    # Content may be nested deeply; json and the serializers recurse. Run the
    # loop on a thread with a large stack so a deep message is answered, not
    # a RecursionError.
    sys.setrecursionlimit(1_000_000)
    threading.stack_size(512 * 1024 * 1024)
    status = [1]

    def run() -> None:
        status[0] = serve()

    t = threading.Thread(target=run, name="convspec-adapter")
    t.start()
    threading.stack_size(0)  # the summarizer threads need no such stack
    t.join()
    return status[0]


if __name__ == "__main__":
    sys.exit(main())
