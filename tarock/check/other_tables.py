"""Which known rules table a score sheet was kept under, when the figures disagree with the one asked for.

A club that plays Oberösterreich rules but scores with ``--rules koenigrufen`` (or the other way round) sees
every hand the tables score differently as a mismatch that "no single line explains".  The recorded figures
usually are exactly what another built-in table gives; saying which turns eight puzzling mismatches into one
sentence: the sheet was kept under that table.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tarock.check.sheet import Sheet
from tarock.check.sheet_compare import score_all
from tarock.formats.items import ReadItem
from tarock.rules.tables import builtin_tables


def explaining_tables(items: Callable[[], Iterable[ReadItem]], sheets: list[Sheet]) -> dict[str, list[str]]:
    """Per deal with a recomputed figure that differs from the recorded one: the built-in tables of its ruleset
    under which every recorded figure of the deal is the recomputed one (scored within its session, as
    ``tarock score --rules TABLE`` would).  Sheet-only hands have nothing recomputed and are left out."""
    wanted = {row.id: row.recorded for sheet in sheets for row in sheet.rows
              if row.mismatches and row.id is not None and row.recorded and not row.sheet_only}
    if not wanted:
        return {}
    rulesets = {r for sheet in sheets if any(row.id in wanted for row in sheet.rows) for r in sheet.rulesets}
    out: dict[str, list[str]] = {}
    for table in builtin_tables():
        if table.ruleset not in rulesets:
            continue
        for check in score_all(items, table):
            recorded = wanted.get(check.id)
            scores = check.scores or {}
            if recorded and check.status != "error" and all(scores.get(p) == v for p, v in recorded.items()):
                out.setdefault(check.id, []).append(table.name)
    return out


def explanation_lines(sheets: list[Sheet], found: dict[str, list[str]]) -> list[str]:
    """What ``explaining_tables`` found, as lines under the sheets: one per hand a table explains, then, when one
    table explains every hand that disagrees, the sentence that says the sheet was kept under it."""
    rows = [(sheet, row) for sheet in sheets for row in sheet.rows
            if row.mismatches and row.id is not None and not row.sheet_only]
    lines = []
    for sheet, row in rows:
        names = found.get(row.id or "")
        if names:
            where = f"session {sheet.session}, hand {row.hand}" if sheet.session else f"hand {row.hand}"
            tables = " and ".join(f"the {name} table" for name in names)
            lines.append(f"{where} ({row.id}): the recorded figures are what {tables} gives")
    common = set.intersection(*(set(found.get(row.id or "", ())) for _, row in rows)) if rows else set()
    if common and len(rows) > 1:
        name = sorted(common)[0]
        lines.append(f"Every hand that disagrees is scored as the sheet says under the {name} table: the sheet looks "
                     f"kept under it (tarock score --rules {name}).")
    return lines
