"""Lists in a message: the items of a bulleted, numbered or lettered list that a heading
line introduces ("Ground rules:" and the lines under it).

Read line by line, once: a heading line the caller accepts opens a list, each item line
right under it (or under the item before) belongs to it, and any other line -- a blank
one too -- closes it. Linear in the text, whatever its shape.
"""

from __future__ import annotations

from collections.abc import Callable

from extractors.text.guard import rx

#: A list item's line: its marker (a bullet, or a number or letter with "." or ")"), then
#: what it says.
ITEM = rx(r"^[ \t]*(?:[-•*–]|\(?(?:\d{1,2}|[a-hA-H])[.)])[ \t]+(?=\S)", linear=True)


def headed_items(text: str, heading: Callable[[str], bool]) -> list[tuple[int, int]]:
    """The (start, end) of each item's words, after its marker and without trailing white
    space, in the lists whose heading line ``heading`` accepts."""
    out: list[tuple[int, int]] = []
    open_list = False
    start = 0
    for words in text.split("\n"):
        line_start, start = start, start + len(words) + 1
        if not words.strip():
            open_list = False
            continue
        item = ITEM.match(words) if open_list else None
        if item is not None:
            out.append((line_start + item.end(), line_start + len(words.rstrip())))
            continue
        open_list = heading(words)
    return out

