"""Commands on one thread: ingest, records, open, render, compact."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Literal

import click

from scratchpad.cli.options import (
    SCHEMA_NAMES,
    date_order_option,
    db_option,
    extractors_option,
    given_schemas_option,
    handle_errors,
    model_option,
    open_pad,
    patterns_option,
    print_json,
    read_pad,
    reference_option,
)
from scratchpad.cli.progress import INGEST_BAR_TURNS, Bar


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--thread", required=True, help="Thread id to store the turns under.")
@click.option("--rebuild", is_flag=True, help="Drop the stored thread first and ingest it anew.")
@click.option("--schema", "schemas", multiple=True, metavar="NAME",
              help="Attach a domain schema to the thread (repeatable): "
                   f"{SCHEMA_NAMES} or module:Class. See 'scratchpad attach'.")
@db_option
@extractors_option
@model_option
@reference_option
@date_order_option
@patterns_option
@handle_errors
def ingest(file: str, thread: str, rebuild: bool, schemas: tuple[str, ...], db_path: str,
           extractors: str | None, model: str | None, reference_date: datetime | None,
           date_order: str | None, patterns: str | None) -> None:
    """Store and extract the new turns of a conversation (JSONL or a JSON list).

    Re-running with the same (or a longer) conversation adds only the new turns.

    Example:

        scratchpad ingest examples/espresso.jsonl --thread espresso --schema refund
    """
    from scratchpad.messages import read_messages

    messages = read_messages(file)
    with open_pad(db_path, extractors, model, reference_date, date_order, patterns,
                  schemas) as pad:
        for name in schemas:
            pad.attach(thread, name)
        with Bar("ingesting", minimum=INGEST_BAR_TURNS) as bar:
            result = pad.ingest(thread, messages, rebuild=rebuild, progress=bar.update)
    if result.skipped:
        click.echo(f"thread {thread}: nothing new ({len(messages)} messages already stored)")
    else:
        first, last = result.new_turns[0], result.new_turns[-1]
        click.echo(f"thread {thread}: turns {first}-{last} ingested, "
                   f"{result.records_added} records, {result.events} status changes")


@click.command()
@click.option("--thread", required=True, help="Thread id.")
@click.option("--kind", multiple=True,
              type=click.Choice(["amount", "identifier", "datetime", "commitment",
                                 "constraint", "question", "note"]),
              help="Only this kind (repeatable).")
@click.option("--status", multiple=True, help="Only this status (repeatable), e.g. active, open.")
@click.option("--json", "as_json", is_flag=True, help="One record JSON object per line.")
@db_option
@handle_errors
def records(thread: str, kind: tuple[str, ...], status: tuple[str, ...], as_json: bool,
            db_path: str) -> None:
    """List the records of a thread, in turn order.

    Example:

        scratchpad records --thread espresso --kind commitment --json
    """
    with read_pad(db_path) as pad:
        rows = pad.records(thread, kind=kind or None, status=status or None)
    for rec in rows:
        if as_json:
            print_json(rec.to_json())
        else:
            label = f" [{rec.label}]" if rec.label else ""
            click.echo(f"{rec.turn:>4}  {rec.kind:<10} {rec.subtype:<10} {rec.status:<10}"
                       f"{label} {json.dumps(rec.text, ensure_ascii=False)}")


@click.command(name="open")
@click.option("--thread", default=None, help="Only this thread (default: all threads).")
@click.option("--json", "as_json", is_flag=True, help="One record JSON object per line.")
@click.option("--sort", "sort_by", type=click.Choice(["thread", "age"]), default="thread",
              show_default=True, help="Order by thread and turn, or oldest first.")
@db_option
@handle_errors
def open_(thread: str | None, as_json: bool, sort_by: Literal["thread", "age"],
          db_path: str) -> None:
    """List open and deferred questions, with their age in turns (and time, when the
    messages carry timestamps), and the required fields attached schemas still miss.

    Example:

        scratchpad open --thread espresso --json
    """
    with read_pad(db_path) as pad:
        rows = [item.to_json() for item in pad.open_items(thread, sort=sort_by)]
    for data in rows:
        if as_json:
            print_json(data)
        elif data["kind"] == "missing":
            click.echo(f"{data['thread']}  {data['schema_name']}  missing  {data['text']}")
        else:
            age = f"age {data['age_turns']} turns"
            if data["age_seconds"] is not None:
                age += f", {_duration(data['age_seconds'])}"
            click.echo(f"{data['thread']}  turn {data['turn']}  {data['status']:<8} {age}  "
                       f"{json.dumps(data['text'], ensure_ascii=False)}")


def _duration(seconds: float) -> str:
    """Say an age the way a dashboard does: "45s", "5m", "2h 10m", "3d 4h"."""
    whole = max(0, int(seconds))
    days, rest = divmod(whole, 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    if minutes:
        return f"{minutes}m"
    return f"{secs}s"


@click.command()
@click.option("--thread", required=True, help="Thread id.")
@click.option("--max-tokens", type=click.IntRange(min=1), default=None,
              help="Token cap; the least salient lines are left out first.")
@click.option("--explain", is_flag=True,
              help="Follow each line with its salience and why it is there (for reading, "
                   "not for the model).")
@db_option
@given_schemas_option
@handle_errors
def render(thread: str, max_tokens: int | None, explain: bool, db_path: str,
           given_schemas: tuple[str, ...]) -> None:
    """Print the carried-forward block of a thread.

    Example:

        scratchpad render --thread espresso --max-tokens 300 --explain
    """
    with read_pad(db_path, given_schemas) as pad:
        click.echo(pad.render(thread, max_tokens=max_tokens, explain=explain), nl=False)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--thread", default="compact", show_default=True, help="Thread id.")
@click.option("--window", type=click.IntRange(min=1), required=True,
              help="The model's context window, in tokens.")
@click.option("--trigger", type=click.FloatRange(min=0, max=1, min_open=True), default=0.6,
              show_default=True, help="Compact once the messages pass this share of the window.")
@click.option("--keep-recent", type=click.IntRange(min=0), default=6, show_default=True,
              help="Recent messages to keep verbatim (more if a tool call needs its result).")
@click.option("--block-tokens", type=click.IntRange(min=1), default=None,
              help="The carried-forward block's budget, in tokens (default: a quarter of "
                   "the window); past it the least salient lines are left out.")
@click.option("--summarizer", type=click.Choice(["deterministic", "instructor"]),
              default="deterministic", show_default=True,
              help="Who writes the summary below the block: rules, or a model via instructor.")
@click.option("--llm-base-url", envvar="SCRATCHPAD_LLM_BASE_URL", default=None,
              help="OpenAI-compatible endpoint for --summarizer instructor "
                   "(also SCRATCHPAD_LLM_BASE_URL).")
@click.option("--llm-model", envvar="SCRATCHPAD_LLM_MODEL", default="default",
              show_default=True, help="Model name for --summarizer instructor.")
@click.option("--timeout", "summary_timeout", type=click.FloatRange(min=0, min_open=True),
              default=60.0, show_default=True,
              help="Seconds the summarizer may take; past it the input comes back unchanged.")
@click.option("--db", "db_path", envvar="SCRATCHPAD_DB", default=":memory:",
              show_default=True, type=click.Path(dir_okay=False),
              help="SQLite file to keep the thread in (default: in memory).")
@extractors_option
@model_option
@given_schemas_option
@handle_errors
def compact(file: str, thread: str, window: int, trigger: float, keep_recent: int,
            block_tokens: int | None, summarizer: str, llm_base_url: str | None,
            llm_model: str, summary_timeout: float,
            db_path: str, extractors: str | None, model: str | None,
            given_schemas: tuple[str, ...]) -> None:
    """Compact a conversation to fit a context window: system prompt, carried-forward
    block with a summary below it, recent turns. Prints the messages as JSONL (in the
    input's format) on stdout and one JSON log line on stderr.

    Example:

        scratchpad compact examples/espresso.jsonl --window 2000 > compacted.jsonl
    """
    from scratchpad.compaction import compact as run_compact
    from scratchpad.messages import read_messages
    from scratchpad.summary import DeterministicSummarizer, Summarizer

    chosen: Summarizer = DeterministicSummarizer()
    if summarizer == "instructor":
        from scratchpad.instructor_summarizer import InstructorSummarizer

        if not llm_base_url:
            raise click.UsageError("--summarizer instructor needs --llm-base-url "
                                   "(or SCRATCHPAD_LLM_BASE_URL)")
        chosen = InstructorSummarizer(base_url=llm_base_url, model=llm_model,
                                      timeout=summary_timeout)
    messages = [m.raw for m in read_messages(file)]
    with open_pad(db_path, extractors, model, schemas=given_schemas) as pad:
        with Bar("ingesting", minimum=INGEST_BAR_TURNS) as bar:
            result = run_compact(messages, pad=pad, thread=thread, window=window,
                                 trigger=trigger, keep_recent=keep_recent, summarizer=chosen,
                                 timeout=summary_timeout, block_tokens=block_tokens,
                                 progress=bar.update)
    for message in result.messages:
        print_json(message)
    click.echo(json.dumps(result.log, ensure_ascii=False), err=True)
