"""What ``scratchpad serve`` runs: Datasette's own ``serve`` over the database, with the
dashboard's title and description.

Datasette opens the file read-only (``mode=ro``) and runs only ``select`` statements, so
the pad can go on writing to it while the dashboard is open; the plugin's canned queries
read the views the store keeps (:mod:`scratchpad.store.views`).
"""

from __future__ import annotations

import os
import socket
from importlib import resources

from scratchpad.errors import ScratchpadError

#: Hosts that reach only this machine; ``scratchpad serve`` warns on any other.
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


def datasette_args(db_path: str, host: str, port: int) -> list[str]:
    """The arguments of ``datasette serve`` for the dashboard."""
    metadata = resources.files("scratchpad.dashboard") / "metadata.json"
    return ["serve", db_path, "--host", host, "--port", str(port),
            "--metadata", str(metadata)]


def run(db_path: str, host: str, port: int) -> None:
    """Serve the dashboard until interrupted."""
    try:
        from datasette.cli import cli as datasette_cli  # type: ignore[import-untyped]
    except ImportError:
        raise ScratchpadError("scratchpad serve needs Datasette: "
                              "pip install 'scratchpad[dashboard]'") from None
    if port:
        _check_free(host, port)
    datasette_cli.main(datasette_args(db_path, host, port), prog_name="scratchpad serve")


def _check_free(host: str, port: int) -> None:
    """Fail with one line when the address cannot be listened on (Datasette would start,
    then stop with a log of its shutdown)."""
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as exc:
        reason = os.strerror(exc.errno) if exc.errno else str(exc)
        raise ScratchpadError(f"cannot listen on {host}:{port}: {reason}; "
                              f"pass another --port or --host") from None
