"""Draw score sheets for people (rich tables) and for spreadsheets (CSV)."""

from __future__ import annotations

import csv
import io

from rich.console import Console
from rich.table import Table
from rich.text import Text

from tarock.findings import readable
from tarock.formats.items import ReadItem
from tarock.check.sheet import Sheet, SheetRow
from tarock.safe_text import csv_cell, escape_controls

RADELC = "○"


def _figure(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _cell(row: SheetRow, player: str) -> Text:
    if row.status == "error":
        return Text("error", style="bold red")
    value = row.cells.get(player)
    text = Text("—" if value is None else _figure(value))
    marks = (row.radelci_after or {}).get(player, 0)
    if marks:
        text.append(" " + RADELC * marks, style="cyan")
    if player in row.disputed:
        text.stylize("bold red")
        text.append(" (audit)", style="red")
    if player in row.mismatches:
        text.stylize("bold red")
        text.append(f" (sheet {_figure(row.mismatches[player])})", style="red")
    return text


def _shown(text: str, style: str = "") -> Text:
    """Text from a record for the terminal: control characters escaped, never read as rich markup."""
    return Text(escape_controls(text), style=style)


def _deal_name(sheet: Sheet, row: SheetRow) -> str:
    """How a finding under the sheet names its deal: ``hand N (id)``, but a sheet-only deal by its session
    and hand: its id is a content hash (a sheet has no id column as a rule), which tells a reader nothing."""
    if not row.sheet_only:
        return f"hand {row.hand} ({row.id})"
    return f"hand {row.hand} of session {sheet.session}" if sheet.session is not None else \
        f"hand {row.hand} outside any session"


def render_text(sheets: list[Sheet], bad: list[ReadItem], console: Console | None = None) -> None:
    """Print every sheet as a table, then the audit notes and unreadable records.

    Names, sessions, ids and messages come from records: they are shown as ``Text`` with their
    control characters escaped (``tarock.safe_text.escape_controls``), never as rich markup.
    """
    console = console or Console(highlight=False)
    for sheet in sheets:
        title = f"Session {sheet.session}" if sheet.session is not None else "Deals outside any session"
        table = Table(title=_shown(title), title_justify="left")
        table.add_column("Hand", justify="right")
        table.add_column("Contract")
        for p in sheet.players:
            table.add_column(_shown(p), justify="right")
        for row in sheet.rows:
            contract = (row.contract or "?").replace("_", " ")
            if row.declarer:
                contract += f" ({row.declarer})"
            if row.sheet_only:
                contract += " [sheet]"
            table.add_row(str(row.hand), _shown(contract), *[_cell(row, p) for p in sheet.players])
        table.add_section()
        table.add_row("", "Total", *[_figure(sheet.totals[p]) for p in sheet.players])
        if sheet.keeps_radelci:
            table.add_row("", "Radelci open", *[RADELC * sheet.radelci[p] or "—" for p in sheet.players])
            table.add_row("", "Session end", *[_figure(sheet.session_end[p]) for p in sheet.players])
            table.add_row("", Text("Final", style="bold"), *[Text(_figure(v), style="bold") for v in sheet.final.values()])
        console.print(table)
        for row in sheet.rows:
            for f in row.findings:
                if f.code == "A_SCORE_MISMATCH" or f.severity in ("error", "renons"):
                    style = "red" if f.severity in ("error", "renons", "audit") else ""
                    where = f" trick {f.trick}" if f.trick else ""
                    console.print(_shown(f"{_deal_name(sheet, row)}{where}: {f.code} {readable(f.code, f.message)}", style))
    if sheets:
        console.print(legend(sheets), style="dim")
    render_unreadable(bad, console)


def render_unreadable(bad: list[ReadItem], console: Console | None = None) -> None:
    """Print each unreadable record as ``FILE:LINE: E_PARSE MESSAGE`` (after the sheets, or after
    ``score --compare``'s tables)."""
    console = console or Console(highlight=False)
    for item in bad:
        assert item.finding is not None
        console.print(_shown(f"{item.file}:{item.line}: E_PARSE {item.finding.message}", "red"))


def legend(sheets: list[Sheet]) -> Text:
    """What the sheet's marks and closing rows mean, printed under the sheets (radelci rows only where a
    sheet keeps them, with what an open radelc costs under their rules)."""
    parts = ["— nothing written for that player in that hand",
             "(sheet N) the recorded figure where it differs from the recomputed one",
             "(audit) a sheet-only figure its arithmetic audit disputes"]
    ends = sorted({sheet.end_per_radelc for sheet in sheets if sheet.keeps_radelci}, reverse=True)
    if ends:
        parts[:0] = [f"{RADELC} a radelc open after the hand (that player's next scores count double)"]
        parts += [f"Session end: {' or '.join(f'{end:+d}' for end in ends)} for each radelc still open",
                  "Final: the total plus the session end"]
    return Text("Legend: " + "; ".join(parts) + ".")


def render_csv(sheets: list[Sheet]) -> str:
    """One row per (session, hand, player): recomputed and recorded figures and radelci.

    Text cells go through ``tarock.safe_text.csv_cell`` (no cell a spreadsheet would run as a formula).
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")

    def write(*cells: object) -> None:
        writer.writerow([csv_cell(cell) for cell in cells])

    write("session", "hand", "id", "contract", "declarer", "status", "player", "score", "recorded",
          "mismatch", "radelci_after")
    for sheet in sheets:
        for row in sheet.rows:
            for p in sheet.players:
                if p not in row.cells:
                    continue
                value = row.cells[p]
                recorded = None if row.recorded is None else row.recorded.get(p)  # blank: not recorded
                write(sheet.session or "", row.hand, row.id, row.contract, row.declarer or "", row.status, p,
                      "" if value is None else value, "" if recorded is None else recorded,
                      int(p in row.mismatches or p in row.disputed), (row.radelci_after or {}).get(p, ""))
        if sheet.keeps_radelci:
            for p in sheet.players:
                write(sheet.session, "end", "", "session_end", "", "", p, sheet.session_end[p], "", 0,
                      sheet.radelci[p])
    return buf.getvalue()
