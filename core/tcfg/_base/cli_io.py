"""The command line's edges: its arguments before argparse sees them, and its output streams.

* :func:`refuse_arguments`: the one-line reason a command line is refused before it is
  parsed (more than :data:`MAX_ARGUMENTS` arguments, or one longer than
  :data:`MAX_ARGUMENT` characters), or None. argparse's cost grows with the square of
  the number of unknown options (20,000 of them took 30 s); no command needs more.
* :func:`escape_unencodable`: stdout and stderr write what their encoding cannot show
  (``PYTHONIOENCODING=ascii``, a C locale) as backslash escapes instead of failing with
  ``UnicodeEncodeError``.
* :func:`error_line`: one line on stderr, or nothing when stderr is closed or cannot
  take it (``2>/dev/full``): a failure to report a failure never changes the exit status.
* :func:`silence_stdout`: point stdout at the null device after it failed, so that the
  interpreter's last flush has nothing left to fail on.

The exit statuses these serve (see :mod:`tcfg.cli`): 2 for bad input, 1 when the output
cannot be written, whatever is written (``--help``, ``--version``, results, errors).
Imports nothing of tcfg: ``tcfg --help`` loads it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from contextlib import suppress

__all__ = [
    "MAX_ARGUMENT",
    "MAX_ARGUMENTS",
    "caret_under",
    "error_line",
    "escape_unencodable",
    "refuse_arguments",
    "silence_stdout",
]

#: The most arguments a command line may have (a target is one argument; ``explain`` takes
#: feature names and ``plugins --check`` plugin names, never this many).
MAX_ARGUMENTS = 1024
#: The longest argument: a target's text is at most :data:`~tcfg._base.grammar.MAX_TEXT` characters
#: (the same number; not imported, so that ``tcfg --help`` loads no grammar; a test checks it).
MAX_ARGUMENT = 65536


def refuse_arguments(argv: Sequence[str]) -> str | None:
    """Why the command line ``argv`` is refused before parsing (one line), or None."""
    if len(argv) > MAX_ARGUMENTS:
        return f"{len(argv)} arguments given; at most {MAX_ARGUMENTS} are accepted"
    for index, argument in enumerate(argv):
        if len(argument) > MAX_ARGUMENT:
            start = argument[:40].encode("ascii", "backslashreplace").decode("ascii")
            return (
                f"argument {index + 1} ({start!r}...) is {len(argument)} characters long; "
                f"the limit is {MAX_ARGUMENT} (that of a target's text)"
            )
    return None


def escape_unencodable() -> None:
    """From now on, stdout and stderr write what their encoding cannot show as backslash escapes.

    (For the command line's process: a stream that cannot be reconfigured is left as it is.)
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            with suppress(OSError, ValueError):  # closed, or a stream that cannot change now
                reconfigure(errors="backslashreplace")


def error_line(message: str, *, caret: bool = False) -> None:
    """Write the first line of ``message`` to stderr as ``tcfg: <message>``; nothing if stderr cannot take it.

    With ``caret``, a message of three lines whose last is a caret line (the input and the
    carets under its offending part) is written whole.
    """
    stderr = sys.stderr
    if stderr is None:  # stderr closed: nowhere to say it
        return
    lines = message.strip("\n").splitlines()
    text = f"tcfg: {lines[0].strip() if lines else message}\n"
    if caret and len(lines) == 3 and set(lines[2].strip()) == {"^"}:
        text += f"{lines[1]}\n{caret_under(lines[1], lines[2], getattr(stderr, 'encoding', None))}\n"
    try:
        stderr.write(text)
        stderr.flush()
    except (OSError, ValueError):  # full, gone, or closed: the exit status still says it
        _silence(stderr)


def caret_under(line: str, carets: str, encoding: str | None) -> str:
    """``carets`` (one column per character of ``line``) spread to the columns ``line`` takes when shown.

    A character the stream's ``encoding`` cannot show is written as its backslash escape
    (``é`` as ``\\xe9``: four columns); a wide East Asian character takes two columns
    and a combining mark none, so the carets stay under the offending part.
    """
    import unicodedata

    out = []
    for i, char in enumerate(line):
        mark = carets[i] if i < len(carets) else " "
        try:
            char.encode(encoding or "utf-8")
            width = 0 if unicodedata.combining(char) else 2 if unicodedata.east_asian_width(char) in "WF" else 1
        except (UnicodeEncodeError, LookupError):
            width = len(char.encode("ascii", "backslashreplace"))
        out.append(mark * width)
    return ("".join(out) + carets[len(line) :]).rstrip()


def silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's last flush has nothing left to fail on."""
    _silence(sys.stdout)


def _silence(stream: object) -> None:
    try:
        fileno = stream.fileno()  # type: ignore[attr-defined]
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fileno)
        os.close(devnull)
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing to flush at exit
        pass
