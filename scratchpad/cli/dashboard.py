"""``scratchpad serve``: the open-items dashboard (Datasette) over a database."""

from __future__ import annotations

import click

from scratchpad.cli.options import db_option, handle_errors, read_pad


@click.command()
@db_option
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but this machine exposes every thread: "
                   "put it behind authentication (README, 'Dashboard').")
@click.option("--port", type=click.IntRange(0, 65535), default=8001, show_default=True,
              help="Port to listen on.")
@handle_errors
def serve(db_path: str, host: str, port: int) -> None:
    """Serve the open-items dashboard: a read-only Datasette app on the database, with
    the queries open_items, commitments, constraints, missing_fields and timeline.

    Needs the dashboard extra: pip install 'scratchpad[dashboard]'.

    Example:

        scratchpad serve --db scratchpad.db
    """
    from scratchpad.dashboard.serve import LOCAL_HOSTS, run

    with read_pad(db_path):
        pass  # brings the file's schema (and the dashboard's views) up to date
    if host not in LOCAL_HOSTS:
        click.echo(f"warning: serving {db_path} to the network at {host}:{port} without "
                   f"authentication", err=True)
    run(db_path, host, port)
