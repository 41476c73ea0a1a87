"""Commands on the domain schemas attached to a thread: attach, state."""

from __future__ import annotations

import json

import click

from scratchpad.cli.options import SCHEMA_NAMES, db_option, handle_errors, print_json, read_pad


@click.command()
@click.option("--schema", "schema_name", required=True, metavar="NAME",
              help=f"A shipped schema ({SCHEMA_NAMES}) or module:Class of your own.")
@click.option("--thread", required=True, help="Thread id.")
@db_option
@handle_errors
def attach(schema_name: str, thread: str, db_path: str) -> None:
    """Attach a domain schema to a thread, in the database file: its state is kept in
    the table state_<name> (one row per thread) and updated on every ingest, its
    missing required fields are listed by 'open', and its fields head the block.

    Example:

        scratchpad attach --schema refund --thread espresso
    """
    from scratchpad.pipeline import Scratchpad

    with Scratchpad(db_path, extractors=[]) as pad:
        table = pad.attach(thread, schema_name).table_name()
    click.echo(f"thread {thread}: schema {schema_name} attached (table {table})")


@click.command()
@click.option("--schema", "schema_name", required=True, metavar="NAME",
              help=f"A shipped schema ({SCHEMA_NAMES}) or module:Class of your own.")
@click.option("--thread", required=True, help="Thread id.")
@click.option("--json", "as_json", is_flag=True, help="Print the state as one JSON object.")
@click.option("--llm-base-url", envvar="SCRATCHPAD_LLM_BASE_URL", default=None,
              help="Also ask a model behind this OpenAI-compatible endpoint for the fields "
                   "the pins leave empty; only values quoted verbatim from the cited turn are "
                   "kept (also SCRATCHPAD_LLM_BASE_URL).")
@click.option("--llm-model", envvar="SCRATCHPAD_LLM_MODEL", default="default",
              show_default=True, help="Model name for --llm-base-url.")
@click.option("--timeout", "llm_timeout", type=click.FloatRange(min=0, min_open=True),
              default=60.0, show_default=True, help="Seconds the model may take.")
@db_option
@handle_errors
def state(schema_name: str, thread: str, as_json: bool, llm_base_url: str | None,
          llm_model: str, llm_timeout: float, db_path: str) -> None:
    """Show a thread's domain state: each field's pinned value with its turns, and the
    required fields still missing.

    Example:

        scratchpad state --schema refund --thread espresso
    """
    llm = None
    if llm_base_url:
        from schemas.llm import LLMSchemaExtractor

        llm = LLMSchemaExtractor(base_url=llm_base_url, model=llm_model, timeout=llm_timeout)
    with read_pad(db_path) as pad:
        filled = pad.state(thread, schema_name, llm=llm)
    if as_json:
        print_json(filled.model_dump(mode="json"))
        return
    for name in type(filled).bindings():
        value = getattr(filled, name)
        for item in value if isinstance(value, list) else [value]:
            if item is None:
                continue
            turns = ", ".join(str(t) for t in item.turns)
            click.echo(f"{name}: {json.dumps(item.text, ensure_ascii=False)} "
                       f"({item.subtype}, {item.status}; turns {turns})")
    for line in filled.missing:
        click.echo(f"MISSING: {line}")
