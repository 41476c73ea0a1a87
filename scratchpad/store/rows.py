"""How records, events and value groups become rows of the store's tables, and rows
records again: plain values (JSON text for ``value`` and ``attrs``), no SQL."""

from __future__ import annotations

import json
from typing import Any

from scratchpad.records import Event, Record
from scratchpad.salience import PRESENT, ValueGroup, clause_salience, is_value, value_key


def record_row(record: Record) -> dict[str, Any]:
    """The ``records`` row of ``record`` (its salience is read from its value's group)."""
    row = record.model_dump(mode="json", exclude={"salience"})
    if row["value"] is not None:
        row["value"] = json.dumps(row["value"], ensure_ascii=False)
    row["attrs"] = json.dumps(row["attrs"], ensure_ascii=False, sort_keys=True)
    row["value_key"] = value_key(record) if is_value(record) else None
    return row


def row_record(row: dict[str, Any]) -> Record:
    """The record of a ``records`` row joined with its value group's salience."""
    data = dict(row)
    data.pop("value_key", None)
    group = data.pop("group_salience", None)
    data["value"] = json.loads(data["value"]) if data["value"] is not None else None
    data["attrs"] = json.loads(data["attrs"]) if data["attrs"] else {}
    record = Record(**data)
    score = (group if group is not None else PRESENT) if is_value(record) \
        else clause_salience(record)
    return record.model_copy(update={"salience": score})


def group_row(group: ValueGroup) -> dict[str, Any]:
    return {"thread": group.thread, "key": group.key, "prose_turns": group.prose_turns,
            "last_prose_turn": group.last_prose_turn, "by_user": int(group.by_user),
            "by_assistant": int(group.by_assistant), "acted": group.acted,
            "echoed": int(group.echoed), "weak": int(group.weak),
            "confirmed": int(group.confirmed), "salience": group.salience}


def event_row(event: Event) -> dict[str, Any]:
    return event.model_dump(mode="json")
