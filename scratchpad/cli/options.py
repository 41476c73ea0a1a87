"""What the commands share: their options, error handling, and opening the pad.

The option decorators (``--db``, ``--extractors``, ``--model``, ``--patterns``,
``--schema``, ``--reference-date``, ``--date-order``), :func:`handle_errors` (library
errors become one-line click errors), the pad openers and the JSON printer.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import click

from schemas import SHIPPED_NAMES
from scratchpad.errors import ScratchpadError

if TYPE_CHECKING:
    from scratchpad.pipeline import Scratchpad

F = TypeVar("F", bound=Callable[..., Any])
SCHEMA_NAMES = ", ".join(SHIPPED_NAMES)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def handle_errors(fn: F) -> F:
    """Turn library errors into one-line click errors (exit 1, no traceback)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ScratchpadError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper  # type: ignore[return-value]


def db_option(fn: F) -> F:
    return click.option(
        "--db", "db_path", envvar="SCRATCHPAD_DB", default="scratchpad.db", show_default=True,
        type=click.Path(dir_okay=False),
        help="SQLite file (also SCRATCHPAD_DB).",
    )(fn)


def extractors_option(fn: F) -> F:
    return click.option(
        "--extractors", default=None, metavar="NAMES",
        help="Comma-separated extractor names (default: all; see 'scratchpad extractors').",
    )(fn)


def model_option(fn: F) -> F:
    return click.option(
        "--model", default=None, metavar="NAME",
        help="spaCy pipeline name, or 'blank:en' (also SCRATCHPAD_SPACY_MODEL).",
    )(fn)


def patterns_option(fn: F) -> F:
    return click.option(
        "--patterns", type=click.Path(dir_okay=False), default=None, metavar="FILE",
        envvar="SCRATCHPAD_PATTERNS",
        help="TOML file of your own identifier patterns (also SCRATCHPAD_PATTERNS); "
             "see docs/patterns.md.",
    )(fn)


def given_schemas_option(fn: F) -> F:
    return click.option(
        "--schema", "given_schemas", multiple=True, metavar="MODULE:CLASS",
        help="A schema of your own attached to the thread, to load (repeatable). Shipped "
             "and installed schemas load without it; a module:Class read from the "
             "database is never imported unless given here.",
    )(fn)


def reference_option(fn: F) -> F:
    return click.option(
        "--reference-date", "reference_date", type=click.DateTime(["%Y-%m-%d",
                                                                   "%Y-%m-%dT%H:%M:%S"]),
        default=None,
        help="Resolve relative dates against this date (default: each message's timestamp).",
    )(fn)


def workers_option(fn: F) -> F:
    return click.option(
        "--workers", type=click.IntRange(min=1), default=None, metavar="N",
        help="Processes to extract with (default: every core). The output is the same "
             "with any number.",
    )(fn)


def date_order_option(fn: F) -> F:
    return click.option(
        "--date-order", "date_order", type=click.Choice(["dmy", "mdy"]), default=None,
        help="How the conversation writes numeric dates whose day and month could swap "
             "(03/12/2026): dmy or mdy. Without it they stay unresolved (verbatim only).",
    )(fn)


def split_names(value: str | None) -> list[str] | None:
    """Split a comma-separated ``--extractors`` value (None when it is empty)."""
    return [n.strip() for n in value.split(",") if n.strip()] if value else None


def open_pad(db_path: str, extractors: str | None = None, model: str | None = None,
             reference_date: datetime | None = None, date_order: str | None = None,
             patterns: str | None = None, schemas: tuple[str, ...] = ()) -> Scratchpad:
    """Open a pad that extracts, as the options given on the command line set it up."""
    from scratchpad.pipeline import Scratchpad

    return Scratchpad(db_path, extractors=split_names(extractors), model=model,
                      patterns=[patterns] if patterns else [], schemas=schemas,
                      reference_date=reference_date, date_order=date_order)  # type: ignore[arg-type]


def read_pad(db_path: str, schemas: tuple[str, ...] = ()) -> Scratchpad:
    """Open an existing database for reading (no extractors are set up)."""
    from pathlib import Path

    from scratchpad.pipeline import Scratchpad

    if db_path != ":memory:" and not Path(db_path).exists():
        raise ScratchpadError(f"No database at {db_path!r}. Run 'scratchpad ingest' first "
                              f"or pass --db.")
    return Scratchpad(db_path, extractors=[], schemas=schemas)


def print_json(obj: Any) -> None:
    """Print ``obj`` as one line of JSON (non-ASCII kept as is)."""
    click.echo(json.dumps(obj, ensure_ascii=False, sort_keys=False))
