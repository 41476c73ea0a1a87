"""Values of a tool's plain-text output wait until the conversation relies on them.

A directory listing, a log, a test run or a ``git`` transcript shows far more paths,
hosts, ids and timestamps than anyone goes on to use; the label guide counts a value of
tool output only when the conversation relies on it. So the values found in a tool
result that is not structured data are **held** (the store's ``held_values``), not
pinned. When a later turn pins the same value -- a user or assistant states it, a tool
acts on it or returns it as data; the same value key
(:func:`scratchpad.salience.value_key`), for a date/time the same calendar slot, for a
path the same file name -- each
held mention of it is **released**: it becomes the record of the tool turn it was found
in, stored with the later turn and before that turn's own records, so the value's
salience still says a tool showed it first. A value nobody restates stays held: it is
not a record, not counted in the block, not in ``records``.

A structured (JSON) tool result is a lookup whose fields the agent reads back and acts
on; its values are pinned at once, as are those of user and assistant turns, and so are
the values a tool acted on (the file an edit wrote, an id the call named).
"""

from __future__ import annotations

from collections.abc import Collection

from extractors.values.tool_fields import structured
from scratchpad.records import Record
from scratchpad.salience import identity_key, is_value, value_key


def holds(role: str, text: str, record: Record, acted: Collection[str] = ()) -> bool:
    """Whether ``record``, found in a turn of ``role`` with ``text``, waits to be
    restated before it is pinned. ``acted``: the value keys the turn's tool acted on (a
    file it edited, an id it was called with): those are relied on already."""
    if role != "tool" or not is_value(record) or structured(text):
        return False
    return record.label != "edited" and value_key(record) not in acted


def hold_keys(record: Record) -> list[str]:
    """The keys a later mention of ``record``'s value is looked up under."""
    keys = [value_key(record)]
    same = identity_key(record)
    if same is not None:
        keys.append(same)
    if record.subtype == "path":  # "/srv/app/pom.xml" listed, "pom.xml" edited: one file
        name = record.text.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
        if name:
            keys.append(f"file|{name.casefold()}")
    return list(dict.fromkeys(keys))
