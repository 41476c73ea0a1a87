"""The ``scratchpad`` command line: a thin click layer over :class:`Scratchpad`."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal, TypeVar

import click

from schemas import SHIPPED
from scratchpad.errors import ScratchpadError
from scratchpad.evaluate import Scores, format_summary, run_corpus, score_conversation
from scratchpad.messages import InputError, read_corpus, read_messages
from scratchpad.pipeline import Scratchpad

F = TypeVar("F", bound=Callable[..., Any])
SCHEMA_NAMES = ", ".join(SHIPPED)
CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _handle_errors(fn: F) -> F:
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


def date_order_option(fn: F) -> F:
    return click.option(
        "--date-order", "date_order", type=click.Choice(["dmy", "mdy"]), default=None,
        help="How the conversation writes numeric dates whose day and month could swap "
             "(03/12/2026): dmy or mdy. Without it they stay unresolved (verbatim only).",
    )(fn)


def _names(value: str | None) -> list[str] | None:
    return [n.strip() for n in value.split(",") if n.strip()] if value else None


def _open_pad(db_path: str, extractors: str | None = None, model: str | None = None,
              reference_date: datetime | None = None, date_order: str | None = None,
              patterns: str | None = None, schemas: tuple[str, ...] = ()) -> Scratchpad:
    return Scratchpad(db_path, extractors=_names(extractors), model=model,
                      patterns=[patterns] if patterns else [], schemas=schemas,
                      reference_date=reference_date, date_order=date_order)  # type: ignore[arg-type]


def _read_pad(db_path: str, schemas: tuple[str, ...] = ()) -> Scratchpad:
    """Open an existing database for reading (no extractors are set up)."""
    from pathlib import Path

    if db_path != ":memory:" and not Path(db_path).exists():
        raise ScratchpadError(f"No database at {db_path!r}. Run 'scratchpad ingest' first "
                              f"or pass --db.")
    return Scratchpad(db_path, extractors=[], schemas=schemas)


def _print_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, sort_keys=False))


@click.group(context_settings=CONTEXT)
@click.version_option(package_name="scratchpad")
def cli() -> None:
    """Pin the facts of agent conversations (amounts, identifiers, dates, commitments,
    constraints, open questions) verbatim, and render them as a carried-forward block.

    Example:

        scratchpad ingest conversation.jsonl --thread refund-42

        scratchpad render --thread refund-42
    """


@cli.command()
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
@_handle_errors
def ingest(file: str, thread: str, rebuild: bool, schemas: tuple[str, ...], db_path: str,
           extractors: str | None, model: str | None, reference_date: datetime | None,
           date_order: str | None, patterns: str | None) -> None:
    """Store and extract the new turns of a conversation (JSONL or a JSON list).

    Re-running with the same (or a longer) conversation adds only the new turns.

    Example:

        scratchpad ingest examples/espresso.jsonl --thread espresso --schema refund
    """
    messages = read_messages(file)
    with _open_pad(db_path, extractors, model, reference_date, date_order, patterns,
                   schemas) as pad:
        for name in schemas:
            pad.attach(thread, name)
        result = pad.ingest(thread, messages, rebuild=rebuild)
    if result.skipped:
        click.echo(f"thread {thread}: nothing new ({len(messages)} messages already stored)")
    else:
        first, last = result.new_turns[0], result.new_turns[-1]
        click.echo(f"thread {thread}: turns {first}-{last} ingested, "
                   f"{result.records_added} records, {result.events} status changes")


@cli.command()
@click.option("--thread", required=True, help="Thread id.")
@click.option("--kind", multiple=True,
              type=click.Choice(["amount", "identifier", "datetime", "commitment",
                                 "constraint", "question"]),
              help="Only this kind (repeatable).")
@click.option("--status", multiple=True, help="Only this status (repeatable), e.g. active, open.")
@click.option("--json", "as_json", is_flag=True, help="One record JSON object per line.")
@db_option
@_handle_errors
def records(thread: str, kind: tuple[str, ...], status: tuple[str, ...], as_json: bool,
            db_path: str) -> None:
    """List the records of a thread, in turn order.

    Example:

        scratchpad records --thread espresso --kind commitment --json
    """
    with _read_pad(db_path) as pad:
        rows = pad.records(thread, kind=kind or None, status=status or None)
    for rec in rows:
        if as_json:
            _print_json(rec.to_json())
        else:
            label = f" [{rec.label}]" if rec.label else ""
            click.echo(f"{rec.turn:>4}  {rec.kind:<10} {rec.subtype:<10} {rec.status:<10}"
                       f"{label} {json.dumps(rec.text, ensure_ascii=False)}")


@cli.command(name="open")
@click.option("--thread", default=None, help="Only this thread (default: all threads).")
@click.option("--json", "as_json", is_flag=True, help="One record JSON object per line.")
@click.option("--sort", "sort_by", type=click.Choice(["thread", "age"]), default="thread",
              show_default=True, help="Order by thread and turn, or oldest first.")
@db_option
@_handle_errors
def open_(thread: str | None, as_json: bool, sort_by: Literal["thread", "age"],
          db_path: str) -> None:
    """List open and deferred questions, with their age in turns (and time, when the
    messages carry timestamps), and the required fields attached schemas still miss.

    Example:

        scratchpad open --thread espresso --json
    """
    with _read_pad(db_path) as pad:
        rows = [item.to_json() for item in pad.open_items(thread, sort=sort_by)]
    for data in rows:
        if as_json:
            _print_json(data)
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


@cli.command()
@click.option("--thread", required=True, help="Thread id.")
@click.option("--max-tokens", type=click.IntRange(min=1), default=None,
              help="Token cap; lowest-priority lines are left out first.")
@db_option
@given_schemas_option
@_handle_errors
def render(thread: str, max_tokens: int | None, db_path: str,
           given_schemas: tuple[str, ...]) -> None:
    """Print the carried-forward block of a thread.

    Example:

        scratchpad render --thread espresso --max-tokens 300
    """
    with _read_pad(db_path, given_schemas) as pad:
        click.echo(pad.render(thread, max_tokens=max_tokens), nl=False)


@cli.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--thread", default="compact", show_default=True, help="Thread id.")
@click.option("--window", type=click.IntRange(min=1), required=True,
              help="The model's context window, in tokens.")
@click.option("--trigger", type=click.FloatRange(min=0, max=1, min_open=True), default=0.6,
              show_default=True, help="Compact once the messages pass this share of the window.")
@click.option("--keep-recent", type=click.IntRange(min=0), default=6, show_default=True,
              help="Recent messages to keep verbatim (more if a tool call needs its result).")
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
@_handle_errors
def compact(file: str, thread: str, window: int, trigger: float, keep_recent: int,
            summarizer: str, llm_base_url: str | None, llm_model: str, summary_timeout: float,
            db_path: str, extractors: str | None, model: str | None,
            given_schemas: tuple[str, ...]) -> None:
    """Compact a conversation to fit a context window: system prompt, carried-forward
    block with a summary below it, recent turns. Prints the messages as JSONL (in the
    input's format) on stdout and one JSON log line on stderr.

    Example:

        scratchpad compact examples/espresso.jsonl --window 2000 > compacted.jsonl
    """
    from scratchpad.compaction import compact as run_compact
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
    with _open_pad(db_path, extractors, model, schemas=given_schemas) as pad:
        result = run_compact(messages, pad=pad, thread=thread, window=window,
                             trigger=trigger, keep_recent=keep_recent, summarizer=chosen,
                             timeout=summary_timeout)
    for message in result.messages:
        _print_json(message)
    click.echo(json.dumps(result.log, ensure_ascii=False), err=True)


@cli.command()
@click.option("--schema", "schema_name", required=True, metavar="NAME",
              help=f"A shipped schema ({SCHEMA_NAMES}) or module:Class of your own.")
@click.option("--thread", required=True, help="Thread id.")
@db_option
@_handle_errors
def attach(schema_name: str, thread: str, db_path: str) -> None:
    """Attach a domain schema to a thread, in the database file: its state is kept in
    the table state_<name> (one row per thread) and updated on every ingest, its
    missing required fields are listed by 'open', and its fields head the block.

    Example:

        scratchpad attach --schema refund --thread espresso
    """
    with Scratchpad(db_path, extractors=[]) as pad:
        table = pad.attach(thread, schema_name).table_name()
    click.echo(f"thread {thread}: schema {schema_name} attached (table {table})")


@cli.command()
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
@_handle_errors
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
    with _read_pad(db_path) as pad:
        filled = pad.state(thread, schema_name, llm=llm)
    if as_json:
        _print_json(filled.model_dump(mode="json"))
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


def _rows(corpus: str, limit: int | None) -> list[dict[str, Any]]:
    rows = read_corpus(corpus)
    return rows[:limit] if limit else rows


def _run_corpus(corpus: str, extractors: str | None, model: str | None, limit: int | None,
                reference_date: datetime | None, date_order: str | None,
                patterns: str | None) -> Any:
    yield from run_corpus(_rows(corpus, limit), extractors=_names(extractors), model=model,
                          reference_date=reference_date, date_order=date_order, source=corpus,
                          patterns=[patterns] if patterns else [])


def _read_predictions(path: str) -> dict[str, list[dict[str, Any]]]:
    """Read 'extract --json' output: {"id", "records"} per line, by conversation id."""
    predicted: dict[str, list[dict[str, Any]]] = {}
    with open(path, encoding="utf-8") as lines:
        for lineno, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"invalid JSON: {exc.msg}", source=path, line=lineno) from None
            if not isinstance(obj, dict) or "id" not in obj:
                raise InputError("a records line needs 'id' and 'records'", source=path,
                                 line=lineno)
            predicted[str(obj["id"])] = obj.get("records", [])
    return predicted


@cli.command()
@click.argument("corpus", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help='One {"id", "records": [...]} object per conversation.')
@click.option("--limit", type=click.IntRange(min=1), default=None, help="First N conversations.")
@extractors_option
@model_option
@reference_option
@date_order_option
@patterns_option
@_handle_errors
def extract(corpus: str, as_json: bool, limit: int | None, extractors: str | None,
            model: str | None, reference_date: datetime | None, date_order: str | None,
            patterns: str | None) -> None:
    """Extract records from every conversation of a corpus (in memory, nothing stored).

    Each line of CORPUS is {"id": ..., "messages": [...]}.

    Example:

        scratchpad extract eval/dev.jsonl --json > records.jsonl
    """
    for row, recs in _run_corpus(corpus, extractors, model, limit, reference_date, date_order,
                                 patterns):
        if as_json:
            _print_json({"id": row["id"], "records": recs})
        else:
            click.echo(f"{row['id']}: {len(recs)} records")


@cli.command(name="eval")
@click.argument("corpus", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--records", "records_file", type=click.Path(exists=True, dir_okay=False),
              default=None, help="Score this 'extract --json' output instead of extracting.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as one JSON object.")
@click.option("--limit", type=click.IntRange(min=1), default=None, help="First N conversations.")
@extractors_option
@model_option
@reference_option
@date_order_option
@patterns_option
@_handle_errors
def eval_(corpus: str, records_file: str | None, as_json: bool, limit: int | None,
          extractors: str | None, model: str | None, reference_date: datetime | None,
          date_order: str | None, patterns: str | None) -> None:
    """Score extraction against the gold of a labelled corpus: value recall per kind,
    noise per turn, question status accuracy and open-question F1.

    Example:

        scratchpad eval eval/dev.jsonl
    """
    scores = Scores()
    if records_file:
        predicted = _read_predictions(records_file)
        for row in _rows(corpus, limit):
            score_conversation(scores, row, predicted.get(str(row["id"]), []))
    else:
        for row, recs in _run_corpus(corpus, extractors, model, limit, reference_date,
                                     date_order, patterns):
            score_conversation(scores, row, recs)
    summary = scores.summary()
    if as_json:
        _print_json(summary)
    else:
        click.echo(format_summary(summary))


@cli.command(name="extractors")
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def extractors_(as_json: bool) -> None:
    """List the registered extractors and lifecycle resolvers.

    Example:

        scratchpad extractors
    """
    from extractors.registry import Registry

    registry = Registry.default()
    instances = registry.create()
    resolvers = registry.resolver_order()
    if as_json:
        _print_json({"extractors": [{"name": e.name, "needs_doc": e.needs_doc}
                                    for e in instances], "resolvers": resolvers})
        return
    for e in instances:
        click.echo(f"{e.name}{'  (uses the spaCy parse)' if e.needs_doc else ''}")
    for name in resolvers:
        click.echo(f"{name}  (resolver)")


def main() -> None:
    """Console-script entry point."""
    try:
        cli.main(prog_name="scratchpad")
    except KeyboardInterrupt:
        sys.exit(130)
