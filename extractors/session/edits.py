"""Files the work changed: paths in a sentence that edits them ("I updated
src/uploader/retry.py"), in the result of a tool that writes files (``edit_file``,
``apply_patch``, ``write``), and in git's own lists of changes (``modified:   x.py``,
``diff --git a/x.py b/x.py``, `` M x.py``).

Only the assistant's prose and tool results count: a user naming a file ("fix the test
in tests/test_upload.py") says where to look, not what changed. A path that is only read
or mentioned stays a plain ``path`` identifier; these get the
label ``edited``, which is what a coding session's "files touched" reads. The paths are
found by the identifier extractor's own path patterns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import regex

from extractors.base import Candidate, TurnView
from extractors.records import Kind
from extractors.text.guard import rx
from extractors.text.sentences import sentences
from extractors.values.id_labels import diff_side
from extractors.values.id_patterns import PATTERNS

if TYPE_CHECKING:
    from spacy.tokens import Doc

NAME = "edits.regex.v1"
_F = regex.IGNORECASE | regex.V0
EDIT_VERB = rx(
    r"\b(?:edit(?:s|ed|ing)?|updat(?:e|es|ed|ing)|chang(?:e|es|ed|ing)|modif(?:y|ies|ied|ying)|"
    r"creat(?:e|es|ed|ing)|add(?:s|ed|ing)?|wr(?:ite|ites|ote|iting|itten)|patch(?:es|ed|ing)?|"
    r"fix(?:es|ed|ing)?|touch(?:es|ed|ing)?|renam(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|"
    r"remov(?:e|es|ed|ing)|mov(?:e|es|ed|ing)|refactor(?:s|ed|ing)?|rewr(?:ite|ote|itten|iting)|"
    r"replac(?:e|es|ed|ing)|insert(?:s|ed|ing)?|tweak(?:s|ed|ing)?|adjust(?:s|ed|ing)?|"
    r"bump(?:s|ed|ing)?|introduc(?:e|es|ed|ing)|new\s+file|saved)\b", _F, linear=True)
#: Tools whose results name the files they wrote.
EDIT_TOOL = rx(r"edit|write|patch|creat|replace|apply|insert|save|modif|renam|"
                          r"move|delete|str_replace", regex.IGNORECASE)
#: Lines of git output that list changed files.
GIT_LINE = rx(
    r"^\s*(?:(?:modified|new\ file|deleted|renamed|both\ modified):\s+|[MADRCU?]{1,2}\s+|"
    r"diff\ --git\ (?=a/)|\+\+\+\ (?=b/)|---\ (?=a/))(?P<rest>\S.*)$", regex.MULTILINE | regex.V0)
_COMMAND = rx(r"`[^`\n]*\s[^`\n]*`")
#: A file, not a directory: a name with an extension, or a dotfile.
_FILE = rx(r"(?:^|[/\\])\.?[\w@+-]+\.[A-Za-z0-9]{1,10}$|(?:^|[/\\])\.[\w-]+$|"
                      r"(?:^|[/\\])(?:Makefile|Dockerfile|Gemfile|Rakefile|Procfile|Jenkinsfile|"
                      r"Vagrantfile|LICENSE|README)$")
PATHS = tuple(p.pattern for p in PATTERNS if p.family == "path")
#: A branch name looks like a path ("fix/retry-timeout") but is not a file.
BRANCHES = tuple(p.pattern for p in PATTERNS if p.subtype == "branch")


def _paths(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Path spans inside ``text[start:end]``, longest first where they overlap."""
    spans: list[tuple[int, int]] = []
    branches = [m.span("id") for p in BRANCHES for m in p.finditer(text, start, end)
                if m.group("id")]
    # A path inside a quoted command (`bats test/backup.bats`) is the command's argument.
    branches += [m.span() for m in _COMMAND.finditer(text, start, end)]
    for pattern in PATHS:
        for m in pattern.finditer(text, start, end):
            s, e = m.span()
            s += diff_side(text, s)  # "+++ b/src/app.py" changed src/app.py
            while e > s and text[e - 1] in ".,:;)'\"`":
                e -= 1
            if e - s < 3 or any(a < e and s < b for a, b in branches):
                continue
            if not _FILE.search(text[s:e]):
                continue  # a directory, or a word with a slash ("I/O-bound")
            if not any(a <= s and e <= b for a, b in spans):
                spans = [(a, b) for a, b in spans if not (s <= a and b <= e)]
                spans.append((s, e))
    return sorted(spans)


class Edits:
    """Label paths the work changed ``edited``."""

    name: ClassVar[str] = NAME
    needs_doc: ClassVar[bool] = False

    def extract(self, turn: TurnView, doc: Doc | None = None) -> list[Candidate]:
        text = turn.text
        if "/" not in text and "." not in text and "\\" not in text:
            return []
        ranges: list[tuple[int, int]] = []
        if turn.role == "tool":
            if turn.tool_name and EDIT_TOOL.search(turn.tool_name):
                ranges.append((0, len(text)))
            ranges.extend(m.span("rest") for m in GIT_LINE.finditer(text))
        elif turn.role == "assistant":
            ranges.extend((a, b) for a, b in sentences(text) if EDIT_VERB.search(text, a, b))
        seen: set[tuple[int, int]] = set()
        out = []
        for a, b in ranges:
            for span in _paths(text, a, b):
                if span in seen:
                    continue
                seen.add(span)
                out.append(Candidate.of(text, *span, kind=Kind.IDENTIFIER, subtype="path",
                                        score=0.9, extractor=NAME, why="a path the work changed",
                                        label="edited", value={"normalized": text[slice(*span)]}))
        return sorted(out, key=lambda c: c.start)
