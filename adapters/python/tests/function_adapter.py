"""convspec adapter for the toy trim functions (pure, system prompt apart,
rebuilt messages) on convspec_kit."""

import _paths  # noqa: F401  (the kit, the toys and the example's library on sys.path)
import convspec_kit as kit
import trim_function as toy


def create(config, _summarizer):
    options, warnings = toy.check_options(config)
    return {"window": options, "config": options, "warnings": warnings}


def trim(options, messages, _summarizer):
    system, rest = kit.peel_system(messages)
    r = toy.trim_conversation(system, rest, options)
    return {"trimmed": kit.restore(r["messages"], messages), "evicted": kit.restore(r["removed"], messages),
            "metrics": r["stats"], "warnings": r["warnings"]}


def classify(messages):
    classes, units = toy.classify(messages)
    return {"classes": classes, "units": units}


def prune(messages):
    kept, at = toy.without_orphans(messages)
    return {"messages": kit.restore(kept, messages), "removed": at}


def build(messages, max_messages):
    kept, repairs = toy.build(messages, max_messages)
    return {"messages": kit.restore(kept, messages), "warnings": repairs}


kit.run(
    name="toy-trim-function", version="0.0.0",
    window={"create": create, "trim": trim, "estimate": toy.estimate},
    history={"classify": classify, "prune": prune, "build": build},
)
