"""A real HTTP server on 127.0.0.1 that speaks the chat-completions protocol, for testing
model-backed components without a model: it answers with a fixed reply, an HTTP error,
or not at all (it hangs)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def completion(content: str) -> dict[str, Any]:
    """A chat-completions response whose message content is ``content``."""
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 0, "model": "test",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }


@contextmanager
def chat_server(behaviour: str, content: str | Callable[[dict[str, Any]], str] = "",
                hang: float = 5.0) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """Serve chat completions; yield (base URL, the request bodies received).

    ``behaviour``: ``reply`` (answer with ``content``, or with what ``content`` returns
    for the request body when it is a function: a scripted model), ``error`` (HTTP 500)
    or ``hang`` (sleep ``hang`` seconds before answering).
    """
    received: list[dict[str, Any]] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (the http.server API)
            length = int(self.headers.get("Content-Length", 0))
            request = json.loads(self.rfile.read(length) or b"{}")
            received.append(request)
            if behaviour == "hang":
                time.sleep(hang)
            if behaviour == "error":
                body = json.dumps({"error": {"message": "model crashed"}}).encode()
                self.send_response(500)
            else:
                reply = content(request) if callable(content) else content
                body = json.dumps(completion(reply)).encode()
                self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up waiting

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", received
    finally:
        server.shutdown()
        server.server_close()
