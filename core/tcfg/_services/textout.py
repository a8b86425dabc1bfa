"""How the ``tcfg`` command lays out its output: JSON for programs, tables that fit a terminal.

- :func:`json_text`: indented for a person at a terminal, compact (one line, no spaces)
  when the output goes to a program (a pipe, a file) or ``compact`` is asked for.
- :func:`table_lines`: left-aligned columns that fit ``width`` characters: a column is
  as wide as its longest cell only up to a share of the width, and a longer cell wraps
  within its column, as does the last column, so no line is padded to the longest cell.
- :func:`counted`: identical items once each, with how many times they occur;
- :func:`value_text`, :func:`mapping_lines`: values and nested mappings as a person reads them.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import textwrap
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any, TextIO, TypeVar

__all__ = [
    "counted",
    "is_terminal",
    "json_text",
    "mapping_lines",
    "table_lines",
    "terminal_width",
    "value_lines",
    "value_text",
]

_T = TypeVar("_T", bound=Hashable)
#: A table never gets narrower than this, whatever the terminal says.
_MIN_WIDTH = 60


def is_terminal(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (default: stdout) is a terminal."""
    stream = sys.stdout if stream is None else stream
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def json_text(data: Any, *, compact: bool = False, stream: TextIO | None = None) -> str:
    """``data`` as JSON text: indented by two on a terminal, compact when piped or if ``compact``."""
    if compact or not is_terminal(stream):
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(data, indent=2, ensure_ascii=False)


def terminal_width(default: int = 100) -> int:
    """The terminal's width in columns (``$COLUMNS`` first), ``default`` when there is none."""
    return max(_MIN_WIDTH, shutil.get_terminal_size((default, 24)).columns)


def table_lines(rows: Iterable[Sequence[str]], width: int, indent: str = "", *, wrap: bool = True) -> list[str]:
    """``rows`` as left-aligned columns in at most ``width`` characters per line (see the module docstring).

    A column other than the last is at most ``max(12, width // (2 * columns))`` wide
    unless its longest cell fits (columns that need less give the rest to the others);
    every cell wraps at word boundaries (or, for a word longer than its column, inside
    the word). Without ``wrap`` each row stays one line (for programs reading it): a
    longer cell runs past its column instead, and no cell is padded beyond the width.
    """
    table = [list(row) for row in rows]
    if not table:
        return []
    columns = max(len(row) for row in table)
    for row in table:
        row += [""] * (columns - len(row))
    room = max(20, width - len(indent) - 2 * (columns - 1))
    cap = max(12, room // (2 * columns)) if columns > 1 else room
    longest = [max(len(row[i]) for row in table) for i in range(columns)]
    widths = [min(longest[i], cap) for i in range(columns - 1)]
    left = room - sum(widths)
    # The room the capped columns left goes to the others, narrowest first: a name column gets
    # its whole width before a column of long type descriptions takes the rest.
    for i in sorted(range(columns - 1), key=lambda i: longest[i]):
        extra = min(longest[i] - widths[i], max(0, left - 20))
        widths[i] += extra
        left -= extra
    widths.append(max(20, left))
    lines: list[str] = []
    for row in table:
        cells = [_wrap(cell, widths[i]) if wrap else [cell] for i, cell in enumerate(row)]
        for k in range(max(len(c) for c in cells)):
            parts = [(c[k] if k < len(c) else "") for c in cells]
            text = "  ".join(p.ljust(widths[i]) for i, p in enumerate(parts[:-1]))
            lines.append((indent + (text + "  " if columns > 1 else "") + parts[-1]).rstrip())
    return lines


def _wrap(cell: str, width: int) -> list[str]:
    if len(cell) <= width:
        return [cell]
    return textwrap.wrap(cell, width, break_long_words=True, break_on_hyphens=False) or [""]


def counted(items: Iterable[_T]) -> list[tuple[_T, int]]:
    """Each distinct item once, in order of first appearance, with its number of occurrences."""
    counts: dict[_T, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return list(counts.items())


def value_text(value: Any) -> str:
    """A value as a person reads it: booleans as true/false, lists comma-separated."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, (list, tuple)):
        return ",".join(value_text(v) for v in value)
    return str(value)


def value_lines(value: Any, indent: str) -> list[str]:
    """How a codegen field's value prints after its label (the first line) and below it."""
    if isinstance(value, Mapping):
        return ["", *mapping_lines(value, indent + "  ")]
    if isinstance(value, (list, tuple)):
        if not value:
            return ["(none)"]
        words = [str(v) for v in value]
        if all(word and not any(c.isspace() for c in word) for word in words):
            return [shlex.join(words)]
        return [words[0]] + [f"{indent}  {w}" for w in words[1:]]
    if value is None:
        return ["-"]
    return [value_text(value) or "(none)"]


def mapping_lines(data: Mapping[str, Any], indent: str) -> list[str]:
    """``data`` as aligned ``key  value`` lines, nested mappings and lists below their key."""
    width = max((len(str(k)) for k in data), default=0)
    lines: list[str] = []
    for key, value in data.items():
        first, *rest = value_lines(value, indent + " " * (width + 2))
        lines.append(f"{indent}{str(key).ljust(width)}  {first}".rstrip())
        lines += rest
    return lines
