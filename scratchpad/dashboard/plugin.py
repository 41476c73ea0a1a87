"""Datasette hooks (the ``datasette`` entry point): the canned queries of
:mod:`~scratchpad.dashboard.queries` and the cells of :mod:`~scratchpad.dashboard.cells`,
for Scratchpad databases only: a database is one when it has had the migration that
creates the dashboard's views."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from datasette import hookimpl  # type: ignore[import-untyped]
from markupsafe import Markup

from scratchpad.dashboard.cells import JSON_COLUMNS, cell_html
from scratchpad.dashboard.queries import QUERIES

_VIEWS_MIGRATION = "m009_dashboard_views"
_COLUMNS = JSON_COLUMNS | {"age_seconds"}
_known: dict[tuple[int, str], bool] = {}


async def is_scratchpad(datasette: Any, database: str) -> bool:
    """Whether ``database`` of this Datasette holds Scratchpad's views (asked once)."""
    key = (id(datasette), database)
    if key not in _known:
        db = datasette.get_database(database)
        found = False
        if "_migrations" in await db.table_names():
            rows = await db.execute("select 1 from _migrations where name = ?",
                                    [_VIEWS_MIGRATION])
            found = bool(rows.rows)
        _known[key] = found
    return _known[key]


@hookimpl
def canned_queries(datasette: Any, database: str) -> Callable[[], Awaitable[dict[str, Any]]]:
    async def queries() -> dict[str, Any]:
        return dict(QUERIES) if await is_scratchpad(datasette, database) else {}
    return queries


@hookimpl
def render_cell(value: Any, column: str, database: str,
                datasette: Any) -> Callable[[], Awaitable[Markup | None]] | None:
    if column not in _COLUMNS:
        return None

    async def cell() -> Markup | None:
        if not await is_scratchpad(datasette, database):
            return None
        shown = cell_html(column, value)
        return Markup(shown) if shown is not None else None  # noqa: S704 - escaped in cells
    return cell
