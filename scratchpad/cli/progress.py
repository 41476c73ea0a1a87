"""What the commands tell a person at a terminal: a progress bar on stderr, and how much
logging they see (``-v``/``-q``).

A bar is drawn only when stderr is a terminal and ``-q`` was not given, so piped or
redirected output is exactly what it would be without it; stdout is never touched.
"""

from __future__ import annotations

import logging
import sys
from types import TracebackType
from typing import Any

import click

#: An ingest of at least this many new turns shows a bar (extract and eval always do).
INGEST_BAR_TURNS = 200
_FORMAT = "%(levelname)s %(name)s: %(message)s"


def verbosity_options() -> list[click.Option]:
    """``-v``/``--verbose`` and ``-q``/``--quiet``, for the group and every command (so
    both ``scratchpad -q extract`` and ``scratchpad extract -q`` work)."""
    return [click.Option(["-v", "--verbose"], count=True, expose_value=False,
                         callback=_set_verbose,
                         help="Log what happens on stderr: -v info, -vv debug."),
            click.Option(["-q", "--quiet"], is_flag=True, expose_value=False,
                         callback=_set_quiet, help="Only errors on stderr, no progress bars.")]


def _settings(ctx: click.Context) -> dict[str, Any]:
    root = ctx.find_root()
    if root.obj is None:
        root.obj = {"verbose": 0, "quiet": False}
    return root.obj


def _set_verbose(ctx: click.Context, _: click.Parameter, value: int) -> None:
    settings = _settings(ctx)
    settings["verbose"] = max(settings["verbose"], value)
    _configure(settings)


def _set_quiet(ctx: click.Context, _: click.Parameter, value: bool) -> None:
    settings = _settings(ctx)
    settings["quiet"] = settings["quiet"] or value
    _configure(settings)


def _configure(settings: dict[str, Any]) -> None:
    """``-q``: errors only (it wins over ``-v``); ``-v``: info; ``-vv``: debug; neither:
    Python's default (warnings, one line each)."""
    root = logging.getLogger()
    if settings["quiet"]:
        root.setLevel(logging.ERROR)
    elif settings["verbose"]:
        if not root.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(logging.Formatter(_FORMAT))
            root.addHandler(handler)
        root.setLevel(logging.INFO if settings["verbose"] == 1 else logging.DEBUG)


def _wanted() -> bool:
    ctx = click.get_current_context(silent=True)
    quiet = bool(ctx and _settings(ctx)["quiet"])
    return not quiet and sys.stderr.isatty()


class Bar:
    """A progress bar on stderr, shown only where :func:`_wanted`; ``total`` may be
    learnt at the first :meth:`update` (an ingest knows how many turns are new only
    once it runs). ``minimum``: fewer steps than this draw nothing."""

    def __init__(self, label: str, total: int | None = None, minimum: int = 0) -> None:
        self.label, self.total, self.minimum = label, total, minimum
        self._shown = _wanted()
        self._bar: Any = None
        self._done = 0

    def __enter__(self) -> Bar:
        return self

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` steps of ``total`` (or of the total given at the start)."""
        total = total if total is not None else self.total
        if not self._shown or total is None or total < self.minimum:
            return
        if self._bar is None:
            self._bar = click.progressbar(length=total, label=self.label, file=sys.stderr,
                                          show_pos=True, show_eta=True)
            self._bar.__enter__()
        self._bar.update(done - self._done)
        self._done = done

    def step(self) -> None:
        self.update(self._done + 1)

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, exc, tb)
