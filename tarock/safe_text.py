"""Text from record files made safe for where it is shown: spreadsheet cells and terminals.

Player names, sessions, ids and the messages that quote them come from record files anyone can
write.  A spreadsheet opening a CSV runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` — or
with a tab or a carriage return, which some spreadsheets strip before looking — as a formula
(OWASP's "CSV injection").  ``csv_cell`` is the one rule every CSV the project writes follows: such
a text cell gets a leading ``'`` (shown as text, not run), while numbers — ``-40`` included, as a
number or as the text of one — stay as they are.  Polars frames are written by
``ingest.csv_out.frame_csv``, which applies the same two patterns column by column.

A terminal runs the escape sequences in what it prints (clear the screen, set the window title,
hide text).  ``escape_controls`` is the one rule every human-readable output follows: control
characters from records are shown escaped (``\x1b``), never sent raw.
"""

from __future__ import annotations

import re
from typing import Any

FORMULA_START = r"^[=+\-@\t\r]"
"""A text cell a spreadsheet may run as a formula starts like this (a regex both ``re`` and polars read)."""

PLAIN_NUMBER = r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"
"""A text that is just a number (``-40``, ``+1.5``): a spreadsheet reads it as that number, so it stays."""

_FORMULA = re.compile(FORMULA_START)
_NUMBER = re.compile(PLAIN_NUMBER)


def csv_cell(value: Any) -> Any:
    """A CSV cell's value with formula injection neutralised: ``'`` before a text that could run.

    Anything but a ``str`` (ints, floats, None, bools) is returned as it is.
    """
    if isinstance(value, str) and _FORMULA.match(value) and not _NUMBER.match(value):
        return "'" + value
    return value


_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""C0 and C1 control characters, DEL, the Unicode line separators and the bidirectional overrides."""
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def escape_controls(text: str, keep: str = "") -> str:
    """``text`` for a terminal: every control character shown as an escape (ESC as ``\\x1b``).

    A name like ``"Ana\\x1b[2J"`` in a record would otherwise clear the screen of whoever reads
    ``tarock check``'s output, and a bidirectional override would show the line reversed.
    Newline, tab and carriage return become ``\\n``, ``\\t``, ``\\r``; the rest of C0, DEL and
    C1 ``\\xNN``; the Unicode line separators and bidirectional overrides ``\\uNNNN``.  ``keep``
    lists characters left as they are where a layout needs them (``"\\n\\t"`` for a block of lines).
    """
    if not _CONTROLS.search(text):
        return text

    def shown(match: re.Match[str]) -> str:
        char = match.group()
        if char in keep:
            return char
        if char in _NAMED:
            return _NAMED[char]
        code = ord(char)
        return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"

    return _CONTROLS.sub(shown, text)
