"""A synthetic coding-agent session that grows by tool steps, with planted values that
must survive any number of compactions verbatim (used by tests and the benchmark)."""

from __future__ import annotations

import json
from typing import Any

#: Values planted early in the session, each as it must appear verbatim afterwards.
PLANTED = {
    "path": "src/billing/totals.py",
    "branch": "fix/vat-rounding-1187",
    "ticket": "BILL-4821",
    "env var": "BILLING_ROUNDING_MODE",
    "table": "invoice_lines",
    "test command": "pytest tests/test_invoices.py -x",
    "amount": "€1,240.50",
    "deadline": "Friday 5 December",
    "config path": "config/rounding.toml",
    "commit": "9f3c2ab",
}
QUESTION = "Should the credit-note rounding be fixed in the same PR?"
CONSTRAINT = "Don't touch the migrations directory"

OPENING = [
    {"role": "system", "content": "You are a coding agent working in the billing repository."},
    {"role": "user", "content": (
        "Ticket BILL-4821: invoice totals are off by a cent. Work on branch "
        "fix/vat-rounding-1187, the bug is in src/billing/totals.py. "
        f"{CONSTRAINT}, and it has to be merged by Friday 5 December. "
        "The failing invoice totals €1,240.50.")},
    {"role": "assistant", "content": (
        "Understood. I'll reproduce it with `pytest tests/test_invoices.py -x` first. "
        "The rounding mode comes from the env var BILLING_ROUNDING_MODE and the lines are "
        "read from the table invoice_lines.")},
    {"role": "user", "content": (
        f"Thanks. {QUESTION} Also the defaults live in config/rounding.toml, and the last "
        "good commit was 9f3c2ab.")},
    # the agent goes straight to work: narration with a tool call answers nothing
    {"role": "assistant", "content": "Noted. Starting the investigation now.",
     "tool_calls": [{"id": "call_0", "type": "function", "function": {
         "name": "run_command", "arguments": json.dumps({"cmd": "git status"})}}]},
    {"role": "tool", "tool_call_id": "call_0", "content": json.dumps({"output": "clean"})},
]


def steps(first: int, count: int) -> list[dict[str, Any]]:
    """``count`` tool steps (an assistant call and its result each), numbered from
    ``first``: reading files and running checks whose output pins nothing new."""
    out: list[dict[str, Any]] = []
    for n in range(first, first + count):
        call_id = f"call_{n}"
        name, args, result = (
            ("read_file", {"path": f"module part {n}"}, f"line {n}: def helper(): return total"),
            ("run_command", {"cmd": f"check step {n}"}, f"step {n} ok, nothing to report"),
            ("search_code", {"query": f"rounding usage {n}"}, f"match {n} in helper code"),
        )[n % 3]
        out.append({"role": "assistant", "content": f"Step {n}: looking further.",
                    "tool_calls": [{"id": call_id, "type": "function",
                                    "function": {"name": name, "arguments": json.dumps(args)}}]})
        out.append({"role": "tool", "tool_call_id": call_id,
                    "content": json.dumps({"output": result, "detail": "x " * 30})})
    return out


def session(tool_steps: int) -> list[dict[str, Any]]:
    """The whole session with ``tool_steps`` steps after the opening."""
    return OPENING + steps(1, tool_steps)
