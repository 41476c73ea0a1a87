"""The ``scratchpad`` command line: a thin click layer over :class:`Scratchpad`.

The group and the console-script entry point live here; the commands live by what they
act on: :mod:`~scratchpad.cli.threads` (ingest, records, open, render, compact),
:mod:`~scratchpad.cli.attached_schemas` (attach, state) and
:mod:`~scratchpad.cli.corpora` (extract, eval, extractors), :mod:`~scratchpad.cli.dashboard`
(serve); what they share is
:mod:`~scratchpad.cli.options`.
"""

from __future__ import annotations

import sys

import click

from scratchpad.cli.attached_schemas import attach, state
from scratchpad.cli.corpora import eval_, extract, extractors_
from scratchpad.cli.dashboard import serve
from scratchpad.cli.options import CONTEXT
from scratchpad.cli.progress import verbosity_options
from scratchpad.cli.threads import compact, ingest, open_, records, render

__all__ = ["cli", "main"]


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="scratchpad")
def cli() -> None:
    """Pin the facts of agent conversations (amounts, identifiers, dates, commitments,
    constraints, open questions) verbatim, and render them as a carried-forward block.

    Example:

        scratchpad ingest conversation.jsonl --thread refund-42

        scratchpad render --thread refund-42
    """


for _command in (ingest, records, open_, render, compact, attach, state, extract, eval_,
                 extractors_, serve):
    _command.params.extend(verbosity_options())
    cli.add_command(_command)
cli.params.extend(verbosity_options())


def main() -> None:
    """Console-script entry point."""
    try:
        cli.main(prog_name="scratchpad")
    except KeyboardInterrupt:
        sys.exit(130)

