"""A local OpenAI-compatible model server for the benchmark: llama-cpp-python's server on
127.0.0.1, started with a model file and stopped when the ``with`` block ends."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path


class ServerFailed(RuntimeError):
    """The model server did not come up."""


@dataclass(frozen=True)
class Served:
    """A running server: where it answers, the model name to ask for, its version."""

    base_url: str
    model: str
    version: str


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def server_version() -> str:
    """llama-cpp-python's version, or raise ServerFailed when it is not installed."""
    try:
        import llama_cpp  # type: ignore[import-not-found]
    except ImportError as exc:
        raise ServerFailed("llama-cpp-python is not installed; run `make fidelity-setup`"
                           ) from exc
    return f"llama-cpp-python {llama_cpp.__version__}"


@contextmanager
def llama_server(model: Path, *, alias: str, n_ctx: int, threads: int, log: Path,
                 start_timeout: float = 300.0) -> Iterator[Served]:
    """Run ``python -m llama_cpp.server`` for ``model`` on 127.0.0.1 until the block ends."""
    version = server_version()
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(model),
               "--model_alias", alias, "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", str(n_ctx), "--n_threads", str(threads),
               "--n_threads_batch", str(threads), "--seed", "0"]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        try:
            base = f"http://127.0.0.1:{port}/v1"
            _wait(base, process, start_timeout, log)
            yield Served(base_url=base, model=alias, version=version)
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait(base: str, process: subprocess.Popen[bytes], timeout: float, log: Path) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            tail = log.read_text(errors="replace").strip().splitlines()[-1:] or ["(no output)"]
            raise ServerFailed(f"the model server exited with {process.returncode}: {tail[0]}")
        try:
            with urllib.request.urlopen(f"{base}/models", timeout=2) as reply:
                json.load(reply)
                return
        except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
            time.sleep(0.5)
    raise ServerFailed(f"the model server did not answer within {timeout:.0f} s (log: {log})")
