"""What a user's identifier pattern must pass before it is compiled in this process.

A user pattern runs on every turn, and some regular expressions are dangerous before they
run at all: ``(?:(?:a{1,100}){1,100}){1,100}`` takes gigabytes to *compile*. So a pattern
from a ``--patterns`` file (or :meth:`extractors.registry.Registry.add_pattern`) is
refused, with one line naming it, when

* a repeat holds another repeat (``(a+)+``, ``(a{2,9}){50}``: nested repeats are what make
  a pattern exponential to match or huge to compile), or a counted repeat is larger than
  :data:`MAX_COUNT`;
* compiling it in a child process takes more than :data:`COMPILE_SECONDS` or more than
  :data:`COMPILE_MEMORY_MB` of memory (where ``fork`` exists; elsewhere the static check
  is all).

Shipped patterns are not checked here: they are proven linear by ``tests/test_guard.py``.
"""

from __future__ import annotations

import os
import resource
import signal
import time

from extractors.text.guard import rx

#: Largest count a ``{n}`` / ``{n,m}`` repeat may ask for.
MAX_COUNT = 1000
#: Seconds a child process may spend compiling one pattern.
COMPILE_SECONDS = 2.0
#: Memory (beyond what the process already holds) compiling one pattern may take.
COMPILE_MEMORY_MB = 256

_COUNTED = rx(r"\{(\d*)(?:,(\d*))?\}", linear=True)


def nested_repeat(pattern: str) -> str | None:
    """Why ``pattern`` repeats a repeat or counts too far, or None. Reads the pattern
    once: escapes and character classes hold no groups."""
    stack: list[bool] = [False]  # per open group: does it hold a repeat?
    i, n = 0, len(pattern)
    last_group_repeats = False  # the atom just closed was a group holding a repeat
    while i < n:
        ch = pattern[i]
        if ch == "\\":
            i += 2
            last_group_repeats = False
            continue
        if ch == "[":  # a character class: skip to its end
            j = i + 1
            if j < n and pattern[j] == "^":
                j += 1
            if j < n and pattern[j] == "]":
                j += 1
            while j < n and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i = j + 1
            last_group_repeats = False
            continue
        if ch == "(":
            stack.append(False)
            i += 1
            last_group_repeats = False
            continue
        if ch == ")":
            inner = stack.pop() if len(stack) > 1 else False
            last_group_repeats = inner
            i += 1
            continue
        count = _COUNTED.match(pattern, i)
        if ch in "*+" or (ch == "{" and count):
            if count:
                low, high = count.group(1), count.group(2)
                biggest = max(int(x) for x in (low, high) if x) if (low or high) else 0
                if biggest > MAX_COUNT:
                    return f"a counted repeat above {MAX_COUNT}"
                repeats = high is None or high == "" or int(high or 0) > 1 or int(low or 0) > 1
                i = count.end()
            else:
                repeats = True
                i += 1
            if repeats and last_group_repeats:
                return "a repeat of a group that repeats (nested repeats)"
            if repeats:
                stack[-1] = True
            last_group_repeats = False
            continue
        last_group_repeats = False
        i += 1
    return None


def compile_in_child(pattern: str, flags: int) -> str | None:
    """Compile ``pattern`` in a forked child under a time and memory limit; return why
    it failed, or None. Without ``fork`` (Windows) this only returns None."""
    if not hasattr(os, "fork"):
        return None
    pid = os.fork()
    if pid == 0:  # the child: compile and report through the exit code
        code = 0
        try:
            limit = _virtual_size() + COMPILE_MEMORY_MB * 2**20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            signal.alarm(int(COMPILE_SECONDS) + 1)
            rx(pattern, flags, lazy=False)
        except MemoryError:
            code = 3
        except BaseException:
            code = 4
        os._exit(code)
    deadline = time.monotonic() + COMPILE_SECONDS
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return f"compiling it takes more than {COMPILE_SECONDS:.0f} s"
        time.sleep(0.005)
    if os.WIFSIGNALED(status):
        return f"compiling it takes more than {COMPILE_SECONDS:.0f} s"
    code = os.WEXITSTATUS(status)
    if code == 3:
        return f"compiling it takes more than {COMPILE_MEMORY_MB} MB"
    return None  # 0, or an error the in-process compile will report with its message


def _virtual_size() -> int:
    """Bytes of address space the process holds now (RLIMIT_AS counts all of it)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 8 * 2**30
