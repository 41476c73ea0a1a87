"""Commands over a corpus of conversations, nothing stored: extract, eval, and the
list of extractors they run."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import click

from scratchpad.cli.options import (
    date_order_option,
    extractors_option,
    handle_errors,
    model_option,
    patterns_option,
    print_json,
    reference_option,
    split_names,
    workers_option,
)
from scratchpad.cli.progress import Bar
from scratchpad.errors import InputError

# The corpus readers and the scorer are imported inside the commands that run them:
# they pull in pydantic, which ``scratchpad --help`` need not load.


def _rows(corpus: str, limit: int | None) -> list[dict[str, Any]]:
    from scratchpad.messages import read_corpus

    rows = read_corpus(corpus)
    return rows[:limit] if limit else rows


def _run_corpus(corpus: str, extractors: str | None, model: str | None, limit: int | None,
                reference_date: datetime | None, date_order: str | None,
                patterns: str | None, workers: int | None, label: str) -> Any:
    """Each conversation with its records, a bar on a terminal counting them."""
    from scratchpad.bulk import run_corpus

    rows = _rows(corpus, limit)
    with Bar(label, len(rows)) as bar:
        for done in run_corpus(rows, extractors=split_names(extractors), model=model,
                               reference_date=reference_date, date_order=date_order,
                               source=corpus, patterns=[patterns] if patterns else [],
                               workers=workers):
            yield done
            bar.step()


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


@click.command()
@click.argument("corpus", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help='One {"id", "records": [...]} object per conversation.')
@click.option("--limit", type=click.IntRange(min=1), default=None, help="First N conversations.")
@extractors_option
@model_option
@reference_option
@date_order_option
@patterns_option
@workers_option
@handle_errors
def extract(corpus: str, as_json: bool, limit: int | None, extractors: str | None,
            model: str | None, reference_date: datetime | None, date_order: str | None,
            patterns: str | None, workers: int | None) -> None:
    """Extract records from every conversation of a corpus (in memory, nothing stored).

    Each line of CORPUS is {"id": ..., "messages": [...]}.

    Example:

        scratchpad extract eval/dev.jsonl --json > records.jsonl
    """
    for row, recs in _run_corpus(corpus, extractors, model, limit, reference_date, date_order,
                                 patterns, workers, "extracting"):
        if as_json:
            print_json({"id": row["id"], "records": recs})
        else:
            click.echo(f"{row['id']}: {len(recs)} records")


@click.command(name="eval")
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
@workers_option
@handle_errors
def eval_(corpus: str, records_file: str | None, as_json: bool, limit: int | None,
          extractors: str | None, model: str | None, reference_date: datetime | None,
          date_order: str | None, patterns: str | None, workers: int | None) -> None:
    """Score extraction against the gold of a labelled corpus: value recall per kind,
    noise per turn, question status accuracy and open-question F1.

    Example:

        scratchpad eval eval/dev.jsonl
    """
    from scratchpad.evaluate import Scores, format_summary, score_conversation

    scores = Scores()
    if records_file:
        predicted = _read_predictions(records_file)
        for row in _rows(corpus, limit):
            score_conversation(scores, row, predicted.get(str(row["id"]), []))
    else:
        for row, recs in _run_corpus(corpus, extractors, model, limit, reference_date,
                                     date_order, patterns, workers, "scoring"):
            score_conversation(scores, row, recs)
    summary = scores.summary()
    if as_json:
        print_json(summary)
    else:
        click.echo(format_summary(summary))


@click.command(name="extractors")
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
        print_json({"extractors": [{"name": e.name, "needs_doc": e.needs_doc}
                                    for e in instances], "resolvers": resolvers})
        return
    for e in instances:
        click.echo(f"{e.name}{'  (uses the spaCy parse)' if e.needs_doc else ''}")
    for name in resolvers:
        click.echo(f"{name}  (resolver)")
