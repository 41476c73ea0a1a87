"""Datasette hooks (the ``datasette`` entry point): the canned queries of
:mod:`~scratchpad.dashboard.queries` and the cells of :mod:`~scratchpad.dashboard.cells`,
for Scratchpad databases only: a database is one when it has had the migration that
creates the dashboard's views."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any
from weakref import WeakKeyDictionary

from datasette import hookimpl  # type: ignore[import-untyped]
from markupsafe import Markup

from scratchpad.dashboard.cells import JSON_COLUMNS, cell_html
from scratchpad.dashboard.queries import QUERIES

_VIEWS_MIGRATION = "m009_dashboard_views"
_COLUMNS = JSON_COLUMNS | {"age_seconds"}
#: Per Datasette database object, whether it is a Scratchpad one (asked once; a weak key,
#: so a database that goes away takes its answer with it).
_known: WeakKeyDictionary[Any, bool] = WeakKeyDictionary()


async def is_scratchpad(datasette: Any, database: str) -> bool:
    """Whether ``database`` of this Datasette holds Scratchpad's views (asked once)."""
    db = datasette.get_database(database)
    if db not in _known:
        found = False
        if "_migrations" in await db.table_names():
            rows = await db.execute("select 1 from _migrations where name = ?",
                                    [_VIEWS_MIGRATION])
            found = bool(rows.rows)
        _known[db] = found
    return _known[db]


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
