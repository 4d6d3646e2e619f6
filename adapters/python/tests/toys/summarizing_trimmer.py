"""A toy library of the first shape the kit must fit: a class whose
summarizer, ``async (text) -> str``, is given at construction, with an async
``trim`` and names of its own. It borrows its trimming from the Python
example (this is a test of the kit's fit, not of trimming)."""

import asyncio

from convspec_window import ConversationWindow, estimate_tokens, summarize


def _blocking(summarize_text, loop):
    """The async summarizer as the example's blocking callback, run on ``loop``."""
    return lambda prompt, _max_tokens: asyncio.run_coroutine_threadsafe(summarize_text(prompt), loop).result()


class SummarizingTrimmer:
    def __init__(self, settings, summarize_text):
        self._window = ConversationWindow(settings)  # raises for a bad setting
        self._summarize_text = summarize_text

    @property
    def settings(self):
        return self._window.config

    @property
    def notices(self):
        return [w.to_json() for w in self._window.warnings]

    async def trim(self, messages, summarize=True):
        """``summarize=False`` trims without calling the summarizer (SUM-8)."""
        summarizer = _blocking(self._summarize_text, asyncio.get_running_loop()) if summarize else None
        r = await asyncio.to_thread(self._window.trim, messages, summarizer, None)
        return {"kept": r.trimmed, "dropped": r.evicted, "summary_message": r.summary,
                "stats": r.metrics.to_json(), "notices": [w.to_json() for w in r.warnings]}

    @staticmethod
    def estimate(messages):
        return estimate_tokens(messages)

    @staticmethod
    async def summarize_all(messages, summarize_text):
        summarizer = _blocking(summarize_text, asyncio.get_running_loop())
        return await asyncio.to_thread(summarize, messages, summarizer, None)
