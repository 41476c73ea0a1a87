"""The routine, counted: the values that earn no line of their own in the block become
one line that says what and how many, by shape -- files grouped under the directories
they share, then dates and times, amounts and identifiers -- and over which turns.

The records stay in the store (``scratchpad records``); only the block leaves them out.
"""

from __future__ import annotations

from scratchpad.records import Kind, Record

#: How many directories the uncarried paths are counted under before the rest are one.
MAX_PATH_GROUPS = 3


def not_carried(groups: list[list[Record]]) -> tuple[int, str] | None:
    """The first turn and the text of one line for the values that earn no line of their
    own (``groups``: each value's mentions), by shape: how many, and in which turns
    ("NOT CARRIED: 97 files under src/ledger/, 9 dates and times (turns 2-197)")."""
    if not groups:
        return None
    paths: dict[str, list[list[Record]]] = {}
    others: dict[str, list[list[Record]]] = {}
    for group in groups:
        first = group[0]
        if first.kind == Kind.IDENTIFIER.value and first.subtype == "path":
            paths.setdefault(_top(first.text), []).append(group)
        else:
            others.setdefault(first.kind, []).append(group)
    parts = []
    tops = sorted(paths, key=lambda t: (-len(paths[t]), t))
    if len(tops) > MAX_PATH_GROUPS:
        merged = [g for t in tops[MAX_PATH_GROUPS - 1:] for g in paths.pop(t)]
        paths[""] = merged
    for top, found in sorted(paths.items(), key=lambda item: (item[0] == "", item[0])):
        where = f" under {_common_dir([g[0].text for g in found]) or top}" if top else ""
        noun = "file" if len(found) == 1 else "files"
        parts.append(f"{len(found)} {'other ' if not top and len(paths) > 1 else ''}"
                     f"{noun}{where}")
    names = {Kind.DATETIME.value: ("date or time", "dates and times"),
             Kind.AMOUNT.value: ("amount", "amounts"),
             Kind.IDENTIFIER.value: ("identifier", "identifiers")}
    for kind, (one, many) in names.items():
        if kind in others:
            found = others[kind]
            parts.append(f"{len(found)} {one if len(found) == 1 else many}")
    first = min(r.turn for g in groups for r in g)
    return first, f"NOT CARRIED: {', '.join(parts)} {_turn_span(groups)}"


def _turn_span(groups: list[list[Record]]) -> str:
    turns = sorted({r.turn for g in groups for r in g})
    return f"(turn {turns[0]})" if len(turns) == 1 else f"(turns {turns[0]}-{turns[-1]})"


def _top(path: str) -> str:
    parts = [p for p in path.replace("\\", "/").split("/") if p and p != "."]
    return parts[0] if len(parts) > 1 else ""


def _common_dir(paths: list[str]) -> str:
    """The longest directory all of ``paths`` are under ("src/ledger/"), or ""."""
    split = [p.replace("\\", "/").split("/")[:-1] for p in paths]
    common: list[str] = []
    for parts in zip(*split, strict=False):
        if len(set(parts)) != 1:
            break
        common.append(parts[0])
    return "/".join(common) + "/" if common else ""
