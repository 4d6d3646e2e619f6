"""Unit tests of the parts of convspec_kit the conformance runs of the toys
reach only by chance. Run by adapters_test.go: python3 -m unittest."""

import io
import json
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import convspec_kit as kit  # noqa: E402


def exchange(requests, **handlers):
    """Serves the requests (JSON values, or raw bytes for a line) and returns the responses, parsed."""
    lines = b"".join(r if isinstance(r, bytes) else json.dumps(r).encode() + b"\n" for r in requests)
    out = io.BytesIO()
    kit.serve(name="t", version="0", stdin=io.BytesIO(lines), stdout=out, **handlers)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def req(id_, method, params=None):
    r = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        r["params"] = params
    return r


class Restore(unittest.TestCase):
    def test_maps_rebuilt_messages_to_the_given_ones_in_order(self):
        given = [{"role": "system", "content": "be brief", "name": "s"}, {"role": "user", "content": "hi", "id": 1},
                 {"role": "user", "content": "hi", "id": 2}, {"role": "assistant", "content": "yo"}]
        summary = {"role": "assistant", "content": "summary"}
        got = kit.restore([{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi", "id": 2}, summary], given)
        self.assertIs(got[0], given[0])
        self.assertIs(got[1], given[2])  # not the first "hi": its id differs
        self.assertIs(got[2], summary)

    def test_prefers_a_json_equal_message_but_never_at_the_cost_of_matching_the_rest(self):
        a, b = {"role": "user", "content": "x", "name": ""}, {"role": "user", "content": "x"}
        self.assertIs(kit.restore([dict(b)], [a, b])[0], b)  # B's copy is B, though it is part of A too
        given = [a, dict(a), b]
        got = kit.restore([dict(b), dict(a), dict(b)], given)  # a peeled copy of the first, then the others
        self.assertEqual([id(m) for m in got], [id(m) for m in given])

    def test_a_changed_or_added_member_stands_for_nothing(self):
        self.assertTrue(kit.part_of({"role": "u", "n": 1}, {"role": "u", "n": 1.0, "x": 2}))
        self.assertFalse(kit.part_of({"role": "u", "n": 2}, {"role": "u", "n": 1}))
        self.assertFalse(kit.part_of({"role": "u", "y": 1}, {"role": "u"}))


class Numbers(unittest.TestCase):
    def test_messages_go_back_as_received_whatever_the_library_sees(self):
        seen = []

        def trim(window, messages, _s):
            seen.append(messages[0]["content"])
            return {"trimmed": [dict(messages[0])], "evicted": [], "metrics": {}}

        window = {"create": lambda c, s: {"window": 0, "config": {}},
                  "trim": lambda w, m, s: {**trim(w, m, s), "trimmed": kit.restore(trim(w, m, s)["trimmed"], m)},
                  "estimate": lambda m: 0}
        line = b'{"jsonrpc":"2.0","id":2,"method":"window.trim","params":{"window":"w1","messages":[{"role":"u","content":[1e400,1.0,' \
               + b"1" * 5000 + b"]}]}}\n"
        out = io.BytesIO()
        kit.serve(name="t", version="0", window=window, stdout=out,
                  stdin=io.BytesIO(json.dumps(req(1, "window.create")).encode() + b"\n" + line))
        self.assertIn(b'"trimmed":[{"role":"u","content":[1e400,1.0,' + b"1" * 5000 + b"]}]", out.getvalue())
        self.assertEqual(seen[0][:2], [float("inf"), 1.0])  # plain Python numbers for the library
        self.assertIsInstance(seen[0][2], float)


class Protocol(unittest.TestCase):
    def test_handshake_declares_the_capabilities_of_the_handlers_given(self):
        window = {"create": None, "trim": None, "estimate": None}
        with self.assertRaisesRegex(TypeError, "window: no handler create, trim, estimate"):
            exchange([], window=window)
        [r] = exchange([req(1, "initialize", {"protocol": 1, "suite": "convspec"})],
                       history={"classify": len, "prune": len, "build": len})
        self.assertEqual(r["result"]["capabilities"], ["history"])

    def test_errors(self):
        class LibraryError(Exception):
            kind = "invalid_config"
            path = "execution.x"

        def classify(messages):
            raise LibraryError("execution.x: bad")

        rs = exchange([b"{not json\n", req(2, "nope"), req(3, "history.classify", {"messages": [{"content": 1}]}),
                       req(4, "history.classify", {"messages": []}), req(5, "history.prune", {"messages": []})],
                      history={"classify": classify, "prune": lambda m: 1 / 0, "build": len})
        self.assertEqual([r["error"]["code"] for r in rs], [-32700, -32601, -32002, -32001, -32603])
        self.assertEqual(rs[2]["error"]["message"], 'messages[0]: "role" is missing')
        self.assertEqual(rs[3]["error"]["data"], {"kind": "invalid_config", "path": "execution.x"})
        self.assertIn("ZeroDivisionError", rs[4]["error"]["message"])

    def test_a_summarizer_fixed_at_construction_without_a_script_is_unsupported(self):
        def trim(window, messages, _s):
            try:
                window("summarize: " + messages[0]["content"])
            except Exception:  # noqa: BLE001 - a library that swallows its summarizer's failure
                pass
            return {"trimmed": messages, "evicted": [], "metrics": {}}

        window = {"create": lambda c, s: {"window": s.text, "config": {}}, "trim": trim, "estimate": len,
                  "summarize": lambda m, s: s.text("x")}
        m = {"messages": [{"role": "user", "content": "hi"}], "window": "w1"}
        rs = exchange([req(1, "window.create"), req(2, "window.trim", m),
                       req(3, "window.trim", {**m, "summarizer": {"reply": "ok"}})], window=window)
        self.assertEqual(rs[1]["error"]["data"]["kind"], "unsupported")
        self.assertEqual(rs[2]["result"]["summarizer_calls"], [{"prompt": "summarize: hi", "max_tokens": 1024}])


class Summarizer(unittest.TestCase):
    def test_records_calls_repeats_the_last_script_and_times_out(self):
        s = kit.Summarizer([kit._Script({"reply": "one"}, "s[0]"), kit._Script({"error": "down"}, "s[1]")])
        self.assertEqual(s("p", 7), "one")
        for text in ("q", "r"):
            with self.assertRaisesRegex(RuntimeError, "down"):
                s.text(text)
        self.assertEqual(s.calls, [{"prompt": "p", "max_tokens": 7}, {"prompt": "q", "max_tokens": 1024},
                                   {"prompt": "r", "max_tokens": 1024}])
        slow = kit.Summarizer([kit._Script({"reply": "late", "delay_ms": 50, "timeout_ms": 5}, "s")])
        with self.assertRaisesRegex(TimeoutError, "within 5 ms"):
            slow.call("p", 1)

    def test_the_numbers_fix_the_outcome_never_two_timers_racing(self):
        """D-44: delay_ms < timeout_ms answers at once (the delay not slept);
        delay_ms >= timeout_ms never answers: a timeout after timeout_ms, one
        sleep, or, with the library's own timeout, waiting to be cancelled."""
        import asyncio
        from unittest import mock

        script = lambda **s: kit.Summarizer([kit._Script(s, "s")])  # noqa: E731
        with mock.patch.object(kit.time, "sleep") as sleep:
            self.assertEqual(script(reply="now", delay_ms=1, timeout_ms=1000).call("p", 1), "now")
            with self.assertRaisesRegex(RuntimeError, "down"):
                script(error="down", delay_ms=999, timeout_ms=1000).text("p")
            sleep.assert_not_called()
            for delay in (50, 5):  # above, and equal to, the timeout
                with self.assertRaisesRegex(TimeoutError, "within 5 ms"):
                    script(reply="never", delay_ms=delay, timeout_ms=5).call("p", 1)
            self.assertEqual(sleep.call_args_list, [mock.call(0.005)] * 2)
            with self.assertRaises(TimeoutError):
                script(reply="never", delay_ms=2**53 - 1, timeout_ms=2**53 - 1).call("p", 1)
            self.assertLessEqual(sleep.call_args.args[0], kit.threading.TIMEOUT_MAX)  # the clock's end, not an overflow

        async def scenario() -> None:
            self.assertEqual(await script(reply="now", delay_ms=1, timeout_ms=1000).acall("p", 1), "now")
            with self.assertRaisesRegex(TimeoutError, "within 1 ms"):
                await script(reply="never", delay_ms=50, timeout_ms=1).atext("p")
            # The library's own timeout: the kit waits until the library cancels.
            call = asyncio.ensure_future(script(reply="never", delay_ms=50, timeout_ms=1).atext("p", own_timeout=True))
            for _ in range(3):
                await asyncio.sleep(0)
            self.assertFalse(call.done())
            call.cancel()
            with self.assertRaises(asyncio.CancelledError):
                await call

        asyncio.run(scenario())

    def test_bad_scripts_are_invalid_params(self):
        for script in ({}, {"reply": "a", "error": "b"}, {"reply": 1}, {"reply": "a", "delay_ms": 2.5}, {"error": "e", "timeout_ms": -1}):
            with self.assertRaises(kit.KitError) as e:
                kit._Script(script, "params.summarizer")
            self.assertEqual(e.exception.kind, "invalid_params", script)


class Declarations(unittest.TestCase):
    def test_levels_formats_and_trimmers_are_declared(self):
        trimmers = [{"name": "t", "bound": "tokens", "counter": "chars4", "guarantees": ["bound"], "trim": lambda m, n: m[:n]}]
        rs = exchange([req(1, "initialize", {"protocol": 1, "suite": "convspec"}),
                       req(2, "trimmer.trim", {"trimmer": "t", "limit": 1, "messages": [{"role": "u"}, {"role": "v"}]}),
                       req(3, "trimmer.trim", {"trimmer": "x", "limit": 1, "messages": []})],
                      levels=["core"], formats=["openai"], trimmers=trimmers)
        self.assertEqual(rs[0]["result"], {"protocol": 1, "implementation": {"name": "t", "version": "0"},
                                           "capabilities": ["trimmer"], "levels": ["core"], "formats": ["openai"],
                                           "trimmers": [{"name": "t", "bound": "tokens", "counter": "chars4", "guarantees": ["bound"]}]})
        self.assertEqual(rs[1]["result"], {"messages": [{"role": "u"}]})
        self.assertEqual(rs[2]["error"]["data"]["kind"], "invalid_params")

    def test_a_wrong_declaration_is_refused_when_serving_starts(self):
        ok = {"name": "t", "bound": "messages", "guarantees": [], "trim": lambda m, n: m}
        for bad, message in ((dict(levels=[]), "levels must be a non-empty list"),
                             (dict(formats=["gemini"]), "formats: unknown 'gemini'"),
                             (dict(trimmers=[{**ok, "counter": "chars4"}]), "counter must be absent"),
                             (dict(trimmers=[{**ok, "bound": "tokens"}]), "counter must be"),
                             (dict(trimmers=[ok, ok]), "declared twice"),
                             (dict(trimmers=[{**ok, "guarantees": ["fast"]}]), "unknown 'fast'"),
                             (dict(trimmers=[{**ok, "trim": None}]), "trim must be a function")):
            with self.assertRaisesRegex(TypeError, message):
                exchange([], **bad)


class SecondDeclaration(unittest.TestCase):
    def test_members_are_declared_and_trimmer_count_answers_with_the_native_counter(self):
        trimmers = [{"name": "lib", "version": 2, "bound": "tokens", "counter": "native", "count": {"over": "message"},
                     "system": "first", "start": "user", "limit_min": 1, "markers": {"role": "system", "prefix": "Skipped "},
                     "guarantees": ["subsequence", "system", "bound"], "fallback": "last_message", "trim": lambda m, n: m,
                     "native_count": lambda m: 3 + 4 * len(m)}]
        rs = exchange([req(1, "initialize", {"protocol": 1, "suite": "convspec"}),
                       req(2, "trimmer.count", {"trimmer": "lib", "messages": [{"role": "user", "content": "a"}]}),
                       req(3, "trimmer.count", {"trimmer": "nope", "messages": []})], trimmers=trimmers)
        self.assertEqual(rs[0]["result"]["trimmers"], [{
            "name": "lib", "bound": "tokens", "counter": "native", "guarantees": ["subsequence", "system", "bound"], "version": 2,
            "system": "first", "markers": {"role": "system", "prefix": "Skipped "}, "limit_min": 1, "start": "user",
            "fallback": "last_message", "count": {"over": "message"}}])
        self.assertEqual(rs[1]["result"], {"count": 7})
        self.assertEqual(rs[2]["error"]["data"]["kind"], "invalid_params")

    def test_a_declaration_that_contradicts_itself_is_refused_naming_the_member(self):
        ok = {"name": "t", "bound": "messages", "guarantees": ["bound"], "trim": lambda m, n: m}
        for bad, message in (({**ok, "head": 2}, r'trimmers\[0\]\.head needs "version": 2'),
                             ({**ok, "version": 2, "system": "first"}, r'trimmers\[0\]\.system .* does not claim "system"'),
                             ({**ok, "version": 2, "guarantees": [], "slack": "unit"}, r"trimmers\[0\]\.slack qualifies the bound"),
                             ({**ok, "version": 2, "count": {"over": "joined"}}, r"trimmers\[0\]\.count says how tokens"),
                             ({**ok, "version": 2, "guarantees": ["head"], "head": 1}, "'head' is not listed"),
                             ({**ok, "version": 2, "bound": "tokens", "counter": "native"}, "native_count must be a function"),
                             ({**ok, "bound": "tokens", "counter": "chars4", "native_count": len}, "native_count is given"),
                             ({**ok, "version": 2, "markers": {"role": "tool", "prefix": "x"}}, r"markers\.role"),
                             ({**ok, "version": 2, "guarantees": ["bound", "units"], "fallback": "last_message"},
                              r'trimmers\[0\]\.fallback .* contradicts the claim "units"'),
                             ({**ok, "version": 2, "fallback": "last_message", "refuses": "nothing_fits"}, r"trimmers\[0\]\.fallback .* refuses")):
            with self.assertRaisesRegex(TypeError, message):
                exchange([], trimmers=[bad])


class Counters(unittest.TestCase):
    def test_chars4_counts_content_characters_as_ecmascript_does(self):
        cases = [('"é你😀"', 4), ('[ {"type": "text", "text": "hi 😀"} ]', 32), ("1e400", 4), ("null", 0),
                 ('[1.0, 1e3, -0, 0.000001, 1e-7, 1e21, 123456789012345678901234, 5e-324]',
                  len('[1,1000,0,0.000001,1e-7,1e+21,1.2345678901234568e+23,5e-324]')),
                 (r'{"a": 1, "b": "x\u0001\n/\u2028", "a": true}', len(r'{"a":true,"b":"x\u0001\n/"}') + 1)]
        for text, chars in cases:
            m = {"role": "user", "content": kit.loads(text, exact=False)}
            self.assertEqual(kit.content_chars(m), chars, text)
        self.assertEqual(kit.content_chars({"role": "user"}), 0)
        self.assertEqual(kit.count_chars4([{"role": "u", "content": "a"}, {"role": "u", "content": "b"}]), 2)  # per message, rounded up


class InternalErrors(unittest.TestCase):
    def test_an_exception_is_answered_with_its_traceback(self):
        def classify(messages):
            return {}["missing"]

        [r] = exchange([req(1, "history.classify", {"messages": []})], history={"classify": classify, "prune": len, "build": len})
        self.assertEqual(r["error"]["data"]["kind"], "internal_error")
        self.assertIn('return {}["missing"]', r["error"]["data"]["traceback"])
        self.assertIn("KeyError", r["error"]["data"]["traceback"])


class Exit(unittest.TestCase):
    def test_run_exits_after_shutdown_whatever_threads_the_library_left(self):
        import subprocess

        program = ("import threading, time, convspec_kit as kit\n"
                   "threading.Thread(target=time.sleep, args=(3600,)).start()  # a library's worker, never ending\n"
                   "kit.run(name='t', version='0', history={'classify': len, 'prune': len, 'build': len})\n")
        for lines in (json.dumps(req(1, "shutdown")) + "\n", ""):  # shutdown, or the end of input
            p = subprocess.run([sys.executable, "-B", "-c", program], input=lines.encode(), capture_output=True,
                               cwd=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."), timeout=120)
            self.assertEqual(p.returncode, 0, p.stderr)
            if lines:
                self.assertEqual(json.loads(p.stdout), {"jsonrpc": "2.0", "id": 1, "result": None})


if __name__ == "__main__":
    unittest.main()
