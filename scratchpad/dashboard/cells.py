"""How the dashboard shows a cell: record values and attributes as labelled lines, ages
as durations. Each function returns HTML (every piece of stored text escaped) or None
to leave the cell to Datasette."""

from __future__ import annotations

import html
import json
from typing import Any

#: Columns holding a record's JSON value or attributes.
JSON_COLUMNS = frozenset({"value", "attrs"})
_UNITS = (("d", 86400), ("h", 3600), ("min", 60))


def cell_html(column: str, value: Any) -> str | None:
    """The HTML for one cell of a Scratchpad table, view or query, or None."""
    if column in JSON_COLUMNS and isinstance(value, str):
        return json_html(value)
    if column == "age_seconds" and isinstance(value, int | float):
        return html.escape(duration(int(value)))
    return None


def json_html(raw: str) -> str | None:
    """A JSON object as one line per key (a money value as "930 EUR"); None for text
    that is not a JSON object."""
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict) or not data:
        return None
    if set(data) == {"amount", "currency"}:
        return html.escape(f"{data['amount']} {data['currency']}")
    lines = [f"<strong>{html.escape(str(key))}</strong>: {_shown(item)}"
             for key, item in data.items() if item not in (None, "", [], {})]
    return "<br>".join(lines) or None


def duration(seconds: int) -> str:
    """``seconds`` as the two largest units: "2 d 3 h", "5 h 20 min", "40 s"."""
    if seconds < 60:
        return f"{max(seconds, 0)} s"
    parts = []
    for unit, size in _UNITS:
        if seconds >= size:
            parts.append(f"{seconds // size} {unit}")
            seconds %= size
    return " ".join(parts[:2])


def _shown(item: Any) -> str:
    """One attribute's value: stored words quoted, lists joined, the rest as JSON."""
    if isinstance(item, str):
        return f"“{html.escape(item)}”"
    if isinstance(item, list):
        return ", ".join(_shown(x) for x in item)
    return html.escape(json.dumps(item, ensure_ascii=False))
