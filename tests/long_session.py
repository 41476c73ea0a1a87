"""Long sessions with planted facts, for the long-session benchmark and its tests.

Each generator takes a ``seed``: the planted facts' names and values (ticket prefixes,
package names, branch names, amounts, dates, the people and the wording around them) are
drawn from it, so that no rule can key on them. What stays fixed is the *shape* of a
session: a few turns in which the user and the agent state what matters, then hundreds or
thousands of routine steps -- files opened, code searched, tests run, parcels tracked --
whose output is full of paths, hashes, timestamps and figures that matter to nobody.

``CodingSession(seed)`` and ``SupportThread(seed)`` both give ``opening`` (the first
messages), ``steps(first, count)`` (routine steps numbered from ``first``, an assistant
call and a tool result each) and ``planted`` (what must survive every compaction
verbatim, by name).
"""

from __future__ import annotations

import json
import random
import string
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

Message = dict[str, Any]

_WORDS = ["ledger", "billing", "invoice", "payout", "settle", "quota", "render", "sync",
          "report", "tariff", "refund", "ingest", "export", "cache", "audit", "routing"]
_FIRST = ["Mira", "Tomas", "Aiko", "Dara", "Nikhil", "Olena", "Bruno", "Sade", "Ines",
          "Kwame", "Lotte", "Rafael"]
_LAST = ["Okafor", "Lindqvist", "Moreau", "Tanaka", "Haddad", "Kowalski", "Ferreira",
         "Nguyen", "Brennan", "Adeyemi"]
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]
_WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def _day(rng: random.Random) -> str:
    """A weekday and date in words ("Friday 5 December") in the coming months."""
    d = date(2027, 1, 4) + timedelta(days=rng.randrange(0, 300))
    return f"{_WEEKDAYS[d.weekday()]} {d.day} {_MONTHS[d.month - 1]}"


def _money(rng: random.Random) -> str:
    symbol = rng.choice(["€", "$", "£"])
    whole = rng.randrange(120, 9800)
    return f"{symbol}{whole:,}.{rng.randrange(0, 100):02d}"


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def _call(call_id: str, name: str, args: dict[str, Any], text: str = "") -> Message:
    return {"role": "assistant", "content": text,
            "tool_calls": [{"id": call_id, "type": "function",
                            "function": {"name": name, "arguments": json.dumps(args)}}]}


def _result(call_id: str, content: Any) -> Message:
    body = content if isinstance(content, str) else json.dumps(content)
    return {"role": "tool", "tool_call_id": call_id, "content": body}


@dataclass
class CodingSession:
    """A coding agent fixing a bug: the user states the ticket, the branch, the file, a
    constraint and a deadline, an amount and a question; the agent names its test command,
    an environment variable and a table; then routine steps follow, with the agent
    editing the planted file now and then."""

    seed: int
    rng: random.Random = field(init=False, repr=False)
    planted: dict[str, str] = field(init=False)
    question: str = field(init=False)
    constraint: str = field(init=False)
    package: str = field(init=False)

    def __post_init__(self) -> None:
        rng = self.rng = random.Random(self.seed)
        word, other = rng.sample(_WORDS, 2)
        self.package = word
        prefix = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.choice([2, 3, 4])))
        self.planted = {
            "ticket": f"{prefix}-{rng.randrange(100, 99999)}",
            "branch": f"fix/{word}-{other}-{rng.randrange(2, 999)}",
            "path": f"src/{word}/{other}_{rng.choice(['calc', 'rules', 'core', 'totals'])}.py",
            "reviewer": f"@{rng.choice(_FIRST).lower()}-{rng.choice(_LAST).lower()}",
            "amount": _money(rng),
            "env var": f"{word.upper()}_{rng.choice(['MODE', 'STRICT', 'PRECISION', 'LEGACY'])}",
            "table": f"{other}_{rng.choice(['lines', 'rows', 'entries', 'items'])}",
            "test command": f"pytest tests/test_{other}.py -x",
            "config path": f"config/{word}.{rng.choice(['toml', 'yaml', 'ini'])}",
            "commit": _hex(rng, 7),
        }
        self.deadline = _day(rng)
        self.question = rng.choice([
            f"Should the {other} export get the same fix?",
            f"Do we also need to backfill the old {other} rows?",
            f"Is it worth adding a regression test for the {other} path too?",
        ])
        self.constraint = rng.choice([
            "Don't touch the migrations directory",
            f"Do not change the public {word} API",
            "Never force-push to the shared branch",
        ])
        self.planted["question"] = self.question
        self.planted["constraint"] = self.constraint
        self.planted["deadline"] = self.deadline

    @property
    def opening(self) -> list[Message]:
        p = self.planted
        return [
            {"role": "system", "content": "You are a coding agent working in the repository."},
            {"role": "user", "content": (
                f"Ticket {p['ticket']}: the {self.package} totals are wrong for some customers. "
                f"Work on branch {p['branch']}; the bug is in {p['path']}. "
                f"{self.constraint}, and it has to be merged by {self.deadline}. "
                f"Ask {p['reviewer']} for the review. The worst case I saw was {p['amount']}.")},
            {"role": "assistant", "content": (
                f"Understood. I'll reproduce it with `{p['test command']}` first. The "
                f"behaviour is switched by the env var {p['env var']} and the rows come "
                f"from the table {p['table']}.")},
            {"role": "user", "content": (
                f"Thanks. {self.question} The defaults live in {p['config path']}, and the "
                f"last good commit was {p['commit']}.")},
            _call("call_0", "run_command", {"cmd": "git status"}, "Starting now."),
            _result("call_0", {"output": "On branch main, nothing to commit"}),
        ]

    def steps(self, first: int, count: int) -> list[Message]:
        """Routine steps: reading files, searching, running tests and git, and every
        25th step an edit of the planted file."""
        rng = random.Random(self.seed * 1_000_003 + first)
        pkg = self.package
        out: list[Message] = []
        for n in range(first, first + count):
            call_id = f"call_{n}"
            module = f"src/{pkg}/{rng.choice(_WORDS)}_{rng.randrange(1, 400)}.py"
            stamp = f"2026-11-{rng.randrange(1, 29):02d} {rng.randrange(0, 24):02d}:" \
                    f"{rng.randrange(0, 60):02d}:{rng.randrange(0, 60):02d}"
            kind = n % 5
            if n % 25 == 0:
                out.append(_call(call_id, "edit_file", {"path": self.planted["path"],
                                                        "patch": f"@@ -{n},3 +{n},4 @@"}))
                out.append(_result(call_id, {"ok": True, "path": self.planted["path"]}))
                continue
            if kind == 0:
                out.append(_call(call_id, "read_file", {"path": module},
                                 f"Let me look at {module}."))
                out.append(_result(call_id, f"# {module}\ndef helper_{n}(rows):\n"
                                            f"    return sum(r.total for r in rows)  # {n}\n"))
            elif kind == 1:
                out.append(_call(call_id, "search_code", {"query": f"helper_{n}"}))
                out.append(_result(call_id, "\n".join(
                    f"src/{pkg}/{rng.choice(_WORDS)}_{rng.randrange(1, 400)}.py:"
                    f"{rng.randrange(1, 900)}: helper_{n}(rows)" for _ in range(3))))
            elif kind == 2:
                out.append(_call(call_id, "run_tests", {"cmd": f"pytest tests/ -k helper_{n}"}))
                out.append(_result(call_id, f"{rng.randrange(3, 90)} passed, "
                                            f"{rng.randrange(0, 3)} skipped in "
                                            f"{rng.randrange(1, 60)}.{rng.randrange(10, 99)}s"))
            elif kind == 3:
                out.append(_call(call_id, "run_command", {"cmd": "git log -1 --format=%h %ci"}))
                out.append(_result(call_id, f"{_hex(rng, 7)} {stamp} +0000"))
            else:
                out.append(_call(call_id, "read_file", {"path": module}))
                out.append(_result(call_id, f"[{stamp}] INFO {module} loaded "
                                            f"{rng.randrange(10, 5000)} rows"))
        return out


@dataclass
class SupportThread:
    """A support thread: an order, an agreed refund, a waiver, a user constraint and an
    unanswered question, then a long run of parcel tracking and routine updates."""

    seed: int
    planted: dict[str, str] = field(init=False)

    def __post_init__(self) -> None:
        rng = random.Random(self.seed)
        prefix = "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.choice([1, 2, 3])))
        self.order = f"{prefix}-{rng.randrange(10000, 999999)}"
        self.refund = _money(rng)
        self.item = rng.choice(["coffee grinder", "standing desk", "rice cooker", "air purifier",
                                "monitor arm", "bread maker"])
        self.fee = f"{self.refund[0]}{rng.randrange(10, 95)}"
        self.refund_clause = f"The refund would be {self.refund}"
        self.waiver = f"I've waived the {self.fee} restocking fee"
        self.constraint = rng.choice(["Please don't call me, email only",
                                      "Don't send anything to my work address",
                                      "I'm not paying for the return shipping"])
        self.question = rng.choice([
            "Would you like the refund on the original card or as store credit?",
            f"Should I also cancel the extended warranty on the {self.item}?",
            "Do you want me to keep the accessories order open?",
        ])
        self.planted = {"order": self.order, "refund": self.refund_clause,
                        "waiver": self.waiver, "constraint": self.constraint,
                        "question": self.question}

    @property
    def opening(self) -> list[Message]:
        return [
            {"role": "system", "content": "You are a support agent for an online shop."},
            {"role": "user", "content": f"Hi, I want to return the {self.item} from order "
                                        f"{self.order}. {self.constraint}."},
            _call("call_0", "lookup_order", {"order_id": self.order}),
            _result("call_0", {"order_id": self.order, "item": self.item,
                               "status": "delivered"}),
            {"role": "assistant", "content": (
                f"I can take the return. {self.refund_clause}, the price less the "
                f"opening deduction.")},
            {"role": "user", "content": f"{self.refund} works, but no restocking fee please."},
            {"role": "assistant", "content": (
                f"Understood, {self.waiver} for this return. {self.question}")},
            {"role": "user", "content": "Let me think about that and come back to you."},
        ]

    def steps(self, first: int, count: int) -> list[Message]:
        """Routine tracking: a lookup and its result per step, with now and then a
        customer asking for news and the agent answering it."""
        rng = random.Random(self.seed * 1_000_003 + first)
        out: list[Message] = []
        for n in range(first, first + count):
            call_id = f"call_{n}"
            parcel = f"TRK{rng.randrange(10**9, 10**10)}"
            stamp = f"2026-12-{rng.randrange(1, 29):02d}T{rng.randrange(0, 24):02d}:" \
                    f"{rng.randrange(0, 60):02d}"
            depot = f"D{rng.randrange(10, 99)}"
            out.append(_call(call_id, "track_parcel", {"parcel": parcel}))
            out.append(_result(call_id, {"parcel": parcel, "scan": stamp, "depot": depot,
                                         "status": "in transit"}))
            if n % 10 == 0:  # the agent reads out what the tracking tool showed
                out.append({"role": "user", "content": "Any news on the collection?"})
                out.append({"role": "assistant", "content": (
                    f"It's in transit; the last scan was at depot {depot} on {stamp[:10]}.")})
        return out
