"""``python -m benchmarks.fidelity``: summary alone vs pins + summary, with a real model.

Starts llama-cpp-python's server on 127.0.0.1 with the chosen model (Qwen2.5-Coder-1.5B
by default; ``--model smollm2`` for a quick plumbing run), compacts every case in both
conditions, asks the QA probe, writes ``benchmarks/results/fidelity.json`` and prints a
table on stderr. ``--base-url`` uses a server that is already running instead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks.fidelity.cases import ROOT, labelled_cases, long_cases
from benchmarks.fidelity.conditions import Settings
from benchmarks.fidelity.llm import Model
from benchmarks.fidelity.models import MODELS, ModelUnavailable, file_sha256
from benchmarks.fidelity.report import table
from benchmarks.fidelity.run import Plan, run_case, same_run, totals
from benchmarks.fidelity.server import ServerFailed, llama_server

RESULTS = Path(__file__).resolve().parents[1] / "results" / "fidelity.json"


def code_version() -> dict[str, Any]:
    """The commit the run's code is (and whether the tree had changes), when the project
    is a git checkout; else nothing."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True,
                              check=True, timeout=10).stdout.strip()
    try:
        return {"commit": git("rev-parse", "HEAD"), "dirty": bool(git("status", "--porcelain",
                                                                      "--untracked-files=no"))}
    except (OSError, subprocess.SubprocessError):
        return {}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m benchmarks.fidelity", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", choices=sorted(MODELS), default="qwen")
    p.add_argument("--base-url", help="use this running OpenAI-compatible server")
    p.add_argument("--model-name", default="local", help="model name to ask the server for")
    p.add_argument("--limit", type=int, help="only the first N labelled cases")
    p.add_argument("--long", type=int, default=2, help="generated long sessions (default 2)")
    p.add_argument("--rounds", type=int, default=5, help="compactions per long session")
    p.add_argument("--steps", type=int, default=10, help="tool steps added per round")
    p.add_argument("--window", type=int, default=2048, help="window of the labelled cases")
    p.add_argument("--long-window", type=int, default=1024, help="window of the long ones")
    p.add_argument("--trigger", type=float, default=0.25,
                   help="compact above this share of the window (labelled cases)")
    p.add_argument("--n-ctx", type=int, default=8192, help="the server's context size")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--mode", default="TOOLS", help="instructor mode for B's summarizer "
                   "(TOOLS: llama.cpp's server answers it reliably; JSON runs on)")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds per model call")
    p.add_argument("--out", type=Path, default=RESULTS)
    return p


def _rows(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    started = time.perf_counter()
    # espresso, then the long sessions, then the blind conversations: a run cut short
    # still has both kinds
    labelled = labelled_cases()[: args.limit]
    cases = labelled[:1] + long_cases(args.long, args.rounds, args.steps) + labelled[1:]
    plan = Plan(short=Settings(window=args.window, trigger=args.trigger),
                long=Settings(window=args.long_window, trigger=0.6), n_ctx=args.n_ctx)

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    failed: list[dict[str, str]] = []
    # Each finished case is appended here, so an interrupted run resumes where it
    # stopped (same settings and model only); the file goes once the results are written.
    partial = args.out.with_name(args.out.stem + ".partial.jsonl")

    def run_all(base_url: str, name: str) -> list[dict[str, Any]]:
        model = Model(base_url, name, timeout=args.timeout)
        model_id = {k: v for k, v in meta["model"].items() if k != "base_url"}  # not the port
        key = {"settings": meta["settings"], "model": model_id}
        done = {row["result"]["id"]: row["result"] for row in _rows(partial)
                if same_run(row.get("key") or {}, key, row["result"]["source"])}
        results = []
        for i, case in enumerate(cases, 1):
            if case.id in done:
                say(f"[{i}/{len(cases)}] {case.id} (done earlier)")
                results.append(done[case.id])
                continue
            say(f"[{i}/{len(cases)}] {case.id}")
            try:
                result = run_case(model, case, plan, args.mode, say)
            except Exception as exc:  # a model call failed: reported, not scored
                failed.append({"id": case.id, "error": f"{exc!r}"[:300]})
                say(f"  {case.id} failed: {exc!r}"[:300])
                continue
            results.append(result)
            partial.parent.mkdir(parents=True, exist_ok=True)
            with partial.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"key": key, "result": result}, ensure_ascii=False) + "\n")
        return results

    meta: dict[str, Any] = {"settings": {
        "window": args.window, "trigger": args.trigger, "long_window": args.long_window,
        "long_trigger": 0.6, "keep_recent": plan.short.keep_recent, "rounds": args.rounds,
        "steps_per_round": args.steps, "n_ctx": args.n_ctx, "instructor_mode": args.mode,
        "temperature": 0.0}, "code": code_version()}
    try:
        if args.base_url:
            meta["model"] = {"name": args.model_name, "base_url": args.base_url}
            results = run_all(args.base_url, args.model_name)
        else:
            spec = MODELS[args.model]
            path = spec.path()
            meta["model"] = {"name": spec.name, "file": path.name, "sha256": file_sha256(path)}
            log = args.out.parent / f"fidelity-server-{args.model}.log"
            with llama_server(path, alias=args.model, n_ctx=args.n_ctx,
                              threads=args.threads, log=log) as served:
                meta["server"] = served.version
                results = run_all(served.base_url, served.model)
    except (ModelUnavailable, ServerFailed) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    summary = totals(results)
    document = {**meta, "totals": summary, "failed": failed, "cases": results,
                "wall_seconds": round(time.perf_counter() - started, 1)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    if not failed:  # else a rerun retries only the failed conversations
        partial.unlink(missing_ok=True)
    say(table(summary))
    if failed:
        say(f"{len(failed)} conversations failed (a model call failed; not scored): "
            + ", ".join(f["id"] for f in failed))
    say(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
