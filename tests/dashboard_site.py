"""A dashboard over a small database, for the dashboard tests and the README's screenshot.

:func:`build_db` ingests the espresso thread (refund schema) and two ticket
conversations of the labelled schema set (ticket schema; one with timestamps, so ages
show in time too). :func:`serving` runs ``scratchpad serve`` on a free 127.0.0.1 port and
stops it; :func:`chromium` runs Debian's headless Chromium on a page.

``python -m tests.dashboard_site docs/dashboard.png`` writes the README's screenshot.
"""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from scratchpad import Scratchpad
from scratchpad.messages import read_messages

ROOT = Path(__file__).resolve().parent.parent
SCRATCHPAD = Path(sys.executable).with_name("scratchpad")
#: Flags that keep Chromium off the network it cannot reach, as root, with no screen.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--hide-scrollbars"]


def ticket_conversations() -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "data" / "schemas_labelled.jsonl").open(encoding="utf-8")]
    return [row for row in rows if row["schema"] == "ticket"][:2]


def build_db(path: Path) -> Path:
    """The espresso thread and two ticket threads in a new file at ``path``."""
    start = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    first, second = ticket_conversations()
    timed = [{**m, "timestamp": (start + timedelta(minutes=7 * i)).isoformat()}
             for i, m in enumerate(second["messages"])]
    with Scratchpad(path) as pad:
        pad.attach("espresso", "refund")
        pad.ingest("espresso", read_messages(ROOT / "examples" / "espresso.jsonl"))
        for thread, messages in ((first["id"], first["messages"]), (second["id"], timed)):
            pad.attach(thread, "ticket")
            pad.ingest(thread, messages)
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def serving(db: Path, timeout: float = 60.0) -> Iterator[str]:
    """``scratchpad serve`` on ``db`` at a free port; yields its base URL, then stops it."""
    port = free_port()
    server = subprocess.Popen([str(SCRATCHPAD), "serve", "--db", str(db), "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(f"{base}/-/versions.json", timeout=2).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    output = server.stdout.read().decode() if server.stdout else ""
                    raise RuntimeError(f"scratchpad serve did not start:\n{output}") from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        if server.stdout:
            server.stdout.close()


def get_json(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chromium(url: str, *, screenshot: Path | None = None, size: str = "1400,900") -> str:
    """The page's DOM after scripts ran, as headless Chromium renders it (and a PNG of it
    when ``screenshot`` is given)."""
    binary = chromium_path()
    if binary is None:
        raise RuntimeError("Chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as profile:
        flags = [*CHROMIUM_FLAGS, f"--user-data-dir={profile}", f"--window-size={size}"]
        if screenshot is not None:
            subprocess.run([binary, *flags, f"--screenshot={screenshot}", url], check=True,
                           capture_output=True, timeout=120)
        done = subprocess.run([binary, *flags, "--dump-dom", url], check=True,
                              capture_output=True, timeout=120)
    return done.stdout.decode()


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "docs" / "dashboard.png")
    with tempfile.TemporaryDirectory() as tmp:
        db = build_db(Path(tmp) / "scratchpad.db")
        with serving(db) as base:
            chromium(f"{base}/scratchpad/open_items", screenshot=out.resolve(),
                     size="1400,1000")
    print(out)


if __name__ == "__main__":
    main()
