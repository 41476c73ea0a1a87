"""Run the benchmark: compact every case in both conditions, score, write, print."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benchmarks.fidelity.cases import Case, Fact
from benchmarks.fidelity.conditions import Pinned, Settings, rolling, tokens_of
from benchmarks.fidelity.context import Message, message_text, transcript
from benchmarks.fidelity.llm import Model
from benchmarks.fidelity.scoring import answer_correct, near_miss, status_flipped
from scratchpad.compaction import is_block

QA_PROMPT = (
    "Answer the questions from the conversation below, and only from it. Reply with one "
    "line per question, numbered like the questions, each holding only the answer (a "
    "value, a name or a word or two). If the conversation does not say, write "
    "\"unknown\".")
_ANSWER = re.compile(r"^\s*(?:\*\*)?(\d+)(?:\*\*)?\s*[.):\-]\s*(.*)$")


@dataclass(frozen=True)
class Plan:
    """What to run: the settings of the short and of the long (repeated) cases."""

    short: Settings
    long: Settings
    n_ctx: int


def _text(messages: list[Message]) -> str:
    return "\n".join(message_text(m) for m in messages)


def ask(model: Model, messages: list[Message], facts: list[Fact]) -> list[str]:
    """The model's answers to the facts' questions from ``messages`` (one call)."""
    questions = [f.question or "" for f in facts]
    body = (f"Conversation:\n{transcript(messages)}\n\nQuestions:\n"
            + "\n".join(f"{i}. {q}" for i, q in enumerate(questions, 1)))
    reply = model.chat([{"role": "system", "content": QA_PROMPT},
                        {"role": "user", "content": body}], max_tokens=24 * len(questions) + 40)
    answers = [""] * len(questions)
    for line in reply.splitlines():
        match = _ANSWER.match(line)
        if match and 1 <= int(match.group(1)) <= len(questions):
            answers[int(match.group(1)) - 1] = match.group(2).strip()
    return answers


def _qa(model: Model, messages: list[Message], facts: list[Fact]) -> dict[str, Any]:
    probed = [f for f in facts if f.question and f.answer]
    answers = ask(model, messages, probed) if probed else []
    return {"correct": sum(answer_correct(a, f) for a, f in zip(answers, probed, strict=True)),
            "total": len(probed),
            "status_flips": sum(status_flipped(a, f)
                                for a, f in zip(answers, probed, strict=True)),
            "answers": [{"question": f.question, "gold": f.answer, "said": a,
                         "correct": answer_correct(a, f)}
                        for a, f in zip(answers, probed, strict=True)]}


def _score(context: list[Message], front: str, case: Case, kept_turns: set[int],
           conversation: str) -> dict[str, Any]:
    """Verbatim and changed facts in a compacted context. ``front`` is what replaced the
    old turns (A: the summary; B: the block and summary); ``kept_turns`` the original
    turn indices still sent verbatim."""
    text = _text(context)
    compacted = [f for f in case.facts if f.turn not in kept_turns]
    verbatim = [f.text for f in compacted if f.text in text]
    changed = {f.text: miss for f in compacted if f.text not in text
               and (miss := near_miss(f, front, conversation))}
    return {"tokens": tokens_of(context), "facts": len(compacted),
            "compacted": [f.text for f in compacted],
            "verbatim": len(verbatim), "missing": [f.text for f in compacted
                                                   if f.text not in text],
            "changed": len(changed), "changed_to": changed}


def _kept(case_messages: list[Message], context: list[Message]) -> set[int]:
    """Indices of the original messages that are in ``context`` unchanged."""
    sent = {repr(m) for m in context}  # compaction hands back copies, so by content
    return {i for i, m in enumerate(case_messages) if repr(m) in sent}


def run_case(model: Model, case: Case, plan: Plan, mode: str,
             say: Callable[[str], None]) -> dict[str, Any]:
    """Compact ``case`` in both conditions (over its rounds), score, and probe."""
    started = time.perf_counter()
    settings = plan.long if case.rounds else plan.short
    pinned = Pinned(model, case.id, settings, mode)
    full = list(case.messages)
    a_context, b_context = list(case.messages), list(case.messages)
    a_summary, rounds, b_log = "", [], {}
    try:
        for r, added in enumerate([[], *case.rounds], 1):
            full += added
            a_context, new_summary = rolling(model, a_context + added, settings)
            a_summary = new_summary if new_summary is not None else a_summary
            b_context, b_log = pinned.compact(b_context + added)
            if b_log.get("reason", "").startswith("summarizer failed"):
                raise RuntimeError(f"{case.id}: B's {b_log['reason']}")
            conversation = _text(full)
            kept = _kept(full, b_context) if not case.rounds else set()
            a = _score(a_context, a_summary, case, kept, conversation)
            b_front = "\n".join(message_text(m) for m in b_context if is_block(m))
            b = _score(b_context, b_front, case, kept, conversation)
            rounds.append({"round": r, "A": a, "B": b, "A_front": a_summary,
                           "B_front": b_front, "B_log": {
                k: b_log.get(k) for k in ("compacted", "tokens_before", "tokens_after",
                                          "pins", "block_tokens", "summary_tokens",
                                          "shrunk", "over_window")}})
            say(f"  {case.id} round {r}: verbatim A {a['verbatim']}/{a['facts']}, "
                f"B {b['verbatim']}/{b['facts']}")
        pins = pinned.pins()
    finally:
        pinned.close()
    last = rounds[-1]
    pinned_facts = [t for t in last["B"]["compacted"] if is_pinned(t, case, pins)]
    b_text = _text(b_context)
    result: dict[str, Any] = {
        "id": case.id, "source": case.source, "messages": len(full),
        "tokens_full": tokens_of(full), "window": settings.window, "rounds": rounds,
        "A": last["A"], "B": last["B"] | {
            "pinned_facts": len(pinned_facts),
            "pinned_verbatim": sum(t in b_text for t in pinned_facts)},
    }
    result["qa"] = {"A": _qa(model, a_context, case.facts),
                    "B": _qa(model, b_context, case.facts)}
    if tokens_of(full) + 400 < plan.n_ctx:
        result["qa"]["full"] = _qa(model, full, case.facts)
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def totals(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Sums over cases, and the shares the README quotes."""
    def total(path: Callable[[dict[str, Any]], int]) -> int:
        return sum(path(r) for r in results)

    facts = total(lambda r: r["A"]["facts"])
    out: dict[str, Any] = {"cases": len(results), "facts_compacted": facts,
                           "mean_tokens_full": round(total(lambda r: r["tokens_full"])
                                                     / len(results)) if results else None}
    for c in ("A", "B"):
        out[c] = {"verbatim": total(lambda r, c=c: r[c]["verbatim"]),
                  "changed": total(lambda r, c=c: r[c]["changed"])}
        out[c]["verbatim_share"] = round(out[c]["verbatim"] / facts, 3) if facts else None
        out[c]["mean_tokens"] = round(total(lambda r, c=c: r[c]["tokens"]) / len(results)) \
            if results else None
    out["B"]["pinned_facts"] = total(lambda r: r["B"]["pinned_facts"])
    out["B"]["pinned_verbatim"] = total(lambda r: r["B"]["pinned_verbatim"])
    for c in ("A", "B", "full"):
        with_c = [r for r in results if c in r["qa"]]
        right = sum(r["qa"][c]["correct"] for r in with_c)
        asked = sum(r["qa"][c]["total"] for r in with_c)
        out[f"qa_{c}"] = {"cases": len(with_c), "correct": right, "asked": asked,
                          "accuracy": round(right / asked, 3) if asked else None,
                          "status_flips": sum(r["qa"][c]["status_flips"] for r in with_c)}
    long = [r for r in results if len(r["rounds"]) > 1]
    if long:
        per_round = []
        for i in range(max(len(r["rounds"]) for r in long)):
            at = [r["rounds"][i] for r in long if len(r["rounds"]) > i]
            per_round.append({"round": i + 1, **{c: round(
                sum(x[c]["verbatim"] for x in at) / max(1, sum(x[c]["facts"] for x in at)), 3)
                for c in ("A", "B")}})
        out["long_rounds"] = per_round
    return out


#: Settings that only one kind of case depends on: a finished labelled case is reused
#: whatever the long sessions' settings, and the other way round.
_LONG_ONLY = frozenset({"long_window", "long_trigger", "rounds", "steps_per_round"})
_SHORT_ONLY = frozenset({"window", "trigger"})


def is_pinned(text: str, case: Case, pins: list[tuple[int, str]]) -> bool:
    """Whether a fact was pinned: a record of the fact's own turn holds its text (a short
    hash the agent said is not pinned by a tool's longer hash three turns earlier). A
    planted fact of a long session (no turn) is pinned by any record holding it."""
    fact = next(f for f in case.facts if f.text == text)
    if fact.turn < 0:
        return any(text in p for _, p in pins)
    turn = sum(1 for m in case.messages[:fact.turn + 1] if m.get("role") != "system")
    return any(t == turn and text in p for t, p in pins)


def same_run(was: dict[str, Any], now: dict[str, Any], source: str) -> bool:
    """Whether a finished case of ``source`` ran with what this run would use."""
    ignore = _SHORT_ONLY if source.startswith("long") else _LONG_ONLY

    def relevant(key: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in (key.get("settings") or {}).items() if k not in ignore}

    return was.get("model") == now.get("model") and relevant(was) == relevant(now)
