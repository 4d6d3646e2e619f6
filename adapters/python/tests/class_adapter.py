"""convspec adapter for the toy SummarizingTrimmer (a class, summarizer given
at construction, async trim) on convspec_kit."""

import _paths  # noqa: F401  (the kit, the toys and the example's library on sys.path)
import convspec_kit as kit
from summarizing_trimmer import SummarizingTrimmer


def create(config, summarizer):
    window = SummarizingTrimmer(config, summarizer.atext)
    return {"window": window, "config": window.settings, "warnings": window.notices}


async def trim(window, messages, summarizer):
    r = await window.trim(messages, summarize=summarizer is not None)
    return {"trimmed": r["kept"], "evicted": r["dropped"], "summary": r["summary_message"],
            "metrics": r["stats"], "warnings": r["notices"]}


kit.run(
    name="toy-summarizing-trimmer", version="0.0.0",
    window={"create": create, "trim": trim, "estimate": SummarizingTrimmer.estimate,
            "summarize": lambda messages, s: SummarizingTrimmer.summarize_all(messages, s.atext)},
)
