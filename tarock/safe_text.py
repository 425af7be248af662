"""Text from record files made safe for where it is shown: spreadsheet cells (and, later, terminals).

Player names, sessions, ids and the messages that quote them come from record files anyone can
write.  A spreadsheet opening a CSV runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` — or
with a tab or a carriage return, which some spreadsheets strip before looking — as a formula
(OWASP's "CSV injection").  ``csv_cell`` is the one rule every CSV the project writes follows: such
a text cell gets a leading ``'`` (shown as text, not run), while numbers — ``-40`` included, as a
number or as the text of one — stay as they are.  Polars frames are written by
``ingest.csv_out.frame_csv``, which applies the same two patterns column by column.
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
