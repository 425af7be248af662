"""Score sheets kept as CSV: import them as records without card play, and audit their arithmetic.

A sheet has a header row and one row per hand::

    session,date,hand,contract,declarer,partner,Ana,Boris,Cilka,David,radelci
    club-7,2026-03-14,1,ena,Cilka,Ana,+40,,+40,,
    club-7,2026-03-14,2,berac,Boris,,,+70,,,Ana Boris Cilka David
    club-7,2026-03-14,total,,,,40,70,40,0,

Known columns (any case; docs/sheet_csv.md describes them): ``hand`` (a number, or ``total`` for a row of written
totals), ``contract``, ``declarer``, ``partner``, ``forehand``, ``won``,
``session``, ``date``, ``id``, ``radelci`` (who holds radelci after the
hand: ``Ana Boris`` or ``Ana 2, Boris``) or one ``radelci_<player>`` count
column per player.  Every other column is a player: the figure that player
wrote for the hand (blank: wrote nothing).  Without a ``forehand`` column
the first player column is forehand in hand 1 and forehand moves one
player on each hand.

The records carry ``tricks: []``, ``"sheet_only": true`` and the partner
(``"partner"``), and the written figures as ``recorded``.  The engine does
not replay them (``tarock check`` audits them record by record with
``SheetAuditor`` and ``deal_to_rows``); ``audit_sheet`` checks what a sheet shows without cards: radelci
handed out after Klop and Berač or higher and cancelled by a win, the
doubling a radelc brings, partners writing the same figure, who writes
what, figures a multiple of 5 under nearest-5 rounding, and the totals.
"""

from __future__ import annotations

import codecs
import csv
import io
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from tarock.deal import Deal
from tarock.findings import Finding
from tarock.options import OptionError, SlovenianOptions, slovenian_options
from tarock.formats.codec import deal_from_obj, lookup_name, RecordError
from tarock.formats.decode import SCORE_LIMIT
from tarock.rules.slovenian.contracts import CONTRACTS
from tarock.rules.slovenian.scoring import cancelled_by_win, klop_cancels
from tarock.formats.trk import CONTRACT_ALIASES
from tarock.formats.reader import open_problem, open_regular
from tarock.formats.writer import Counts, write_records

CODE = "A_SCORE_MISMATCH"
KNOWN_COLUMNS = ("hand", "contract", "declarer", "partner", "forehand", "won", "session", "date", "id", "radelci")
TOTAL_WORDS = frozenset({"total", "totals", "sum", "skupaj", "vsota", "summe", "σ"})
KONTRA_FACTORS = (1, 2, 4, 8, 16)
_MINUS = str.maketrans({"−": "-", "–": "-", "+": ""})
_YES = {"yes": True, "y": True, "true": True, "won": True, "1": True, "da": True,
        "no": False, "n": False, "false": False, "lost": False, "0": False, "ne": False}


class SheetError(ValueError):
    """A sheet row (or the header) that cannot be read; the text names the line and column."""


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One row of a score sheet, as written.

    ``players`` are the sheet's player columns in column order; ``scores``
    the figures written (players who wrote nothing are absent); ``radelci``
    the radelci held after the hand (None: the sheet does not say).
    ``hand`` is None for a row of totals (``total`` set).
    """

    line: int
    players: tuple[str, ...]
    hand: int | None
    scores: Mapping[str, int]
    session: str | None = None
    date: str | None = None
    id: str | None = None
    contract: str | None = None
    declarer: str | None = None
    partner: str | None = None
    forehand: str | None = None
    won: bool | None = None
    radelci: Mapping[str, int] | None = None
    file: str | None = None

    @property
    def total(self) -> bool:
        return self.hand is None


# --------------------------------------------------------------------------- reading


@dataclass
class _Columns:
    """Where each known column and each player is in the header."""

    known: dict[str, int] = field(default_factory=dict)
    players: dict[str, int] = field(default_factory=dict)
    radelci: dict[str, int] = field(default_factory=dict)


def _header(cells: list[str]) -> _Columns:
    cols = _Columns()
    for i, raw in enumerate(cells):
        name = raw.strip()
        low = name.casefold()
        if not name:
            raise SheetError(f"line 1, column {i + 1}: a column has no name")
        if low in KNOWN_COLUMNS:
            target, key = cols.known, low
        elif low.startswith("radelci_") or low.startswith("radelci "):
            target, key = cols.radelci, name[8:].strip()
        else:
            target, key = cols.players, name
        if key in target:
            raise SheetError(f"line 1, column {i + 1}: the column {name!r} is given twice")
        target[key] = i
    if "hand" not in cols.known:
        raise SheetError("line 1: the sheet needs a 'hand' column")
    if len(cols.players) not in (3, 4):
        raise SheetError(f"line 1: a sheet has 3 or 4 player columns, not {len(cols.players)} "
                         f"({', '.join(cols.players) or 'none'})")
    unknown = sorted(set(cols.radelci) - set(cols.players))
    if unknown:
        raise SheetError(f"line 1: radelci column for {unknown[0]!r}, who has no score column")
    if cols.radelci and "radelci" in cols.known:
        raise SheetError("line 1: give radelci either as one 'radelci' column or per player, not both")
    return cols


MAX_FIGURE = SCORE_LIMIT
"""The largest figure a sheet may hold either way: what a record's ``recorded`` scores may hold."""


def _figure(text: str, where: str) -> int | None:
    """A written figure: ``+40``, ``-140``, ``−140``, ``40``; blank is None."""
    text = text.strip()
    if not text:
        return None
    clean = text.translate(_MINUS).replace(" ", "")
    if not re.fullmatch(r"-?\d+", clean):
        raise SheetError(f"{where}: expected a whole number, found {text!r}")
    value = int(clean)
    if abs(value) > MAX_FIGURE:
        raise SheetError(f"{where}: {text!r} is out of range: a figure on a sheet is at most {MAX_FIGURE:,} "
                         "either way")
    return value


def _radelci_list(text: str, players: tuple[str, ...], where: str) -> dict[str, int]:
    """``Ana Boris`` / ``Ana 2, Boris`` / ``Ana×2``: radelci held by each player (the others hold none)."""
    held = {p: 0 for p in players}
    parts = [p for p in re.split(r"," if "," in text else r"\s+(?=\D)", text.strip()) if p.strip()]
    for part in parts:
        m = re.fullmatch(r"\s*(.+?)\s*(?:[x×*]?\s*(\d+))?\s*", part)
        assert m is not None
        name, count = m.group(1), m.group(2)
        if name not in held:
            raise SheetError(f"{where}: {name!r} is not one of the players ({', '.join(players)})")
        held[name] += int(count) if count else 1
    return held


def _cell(cells: list[str], index: int | None) -> str:
    return cells[index].strip() if index is not None and index < len(cells) else ""


def _row(cells: list[str], cols: _Columns, line: int, file: str | None) -> SheetRow:
    players = tuple(cols.players)
    get = {k: _cell(cells, i) for k, i in cols.known.items()}
    where = f"line {line}"
    hand_text = get.get("hand", "")
    if hand_text.casefold() in TOTAL_WORDS:
        hand = None
    elif re.fullmatch(r"[0-9]+", hand_text):
        hand = int(hand_text)
    else:
        raise SheetError(f"{where}, column hand: expected a hand number or 'total', found {hand_text!r}")
    scores = {}
    for p, i in cols.players.items():
        value = _figure(_cell(cells, i), f"{where}, column {p}")
        if value is not None:
            scores[p] = value
    row = SheetRow(line, players, hand, scores, session=get.get("session") or None, date=get.get("date") or None,
                   id=get.get("id") or None, file=file)
    if hand is None:
        return row
    return replace(row, contract=_contract(get.get("contract", ""), where), won=_won(get.get("won", ""), where),
                   declarer=_player(get.get("declarer", ""), players, where, "declarer"),
                   partner=_player(get.get("partner", ""), players, where, "partner"),
                   forehand=_player(get.get("forehand", ""), players, where, "forehand"),
                   radelci=_radelci(cells, cols, players, where))


def _contract(text: str, where: str) -> str:
    if not text:
        raise SheetError(f"{where}, column contract: every hand needs its contract")
    name = lookup_name(text, frozenset(CONTRACTS)) or CONTRACT_ALIASES.get(re.sub(r"[\s\-]+", "_", text.casefold()))
    if name is None:
        raise SheetError(f"{where}, column contract: unknown contract {text!r}; expected one of "
                         f"{', '.join(CONTRACTS)}")
    return name


def _won(text: str, where: str) -> bool | None:
    if not text:
        return None
    if text.casefold() not in _YES:
        raise SheetError(f"{where}, column won: expected yes or no, found {text!r}")
    return _YES[text.casefold()]


def _player(text: str, players: tuple[str, ...], where: str, column: str) -> str | None:
    if not text:
        return None
    if text not in players:
        raise SheetError(f"{where}, column {column}: {text!r} is not one of the players ({', '.join(players)})")
    return text


def _radelci(cells: list[str], cols: _Columns, players: tuple[str, ...], where: str) -> dict[str, int] | None:
    if "radelci" in cols.known:
        return _radelci_list(_cell(cells, cols.known["radelci"]), players, f"{where}, column radelci")
    if not cols.radelci:
        return None
    held = {p: 0 for p in players}
    for p, i in cols.radelci.items():
        held[p] = _figure(_cell(cells, i), f"{where}, column radelci_{p}") or 0
    return held


def _dialect(head: str) -> type[csv.Dialect] | csv.Dialect:
    """Comma, semicolon (spreadsheets in much of Europe) or tab, whichever the header uses."""
    counts = {d: head.count(d) for d in (",", ";", "\t")}
    delimiter = max(counts, key=lambda d: counts[d])

    class Sheet(csv.excel):
        pass

    Sheet.delimiter = delimiter
    return Sheet


MAX_SHEET_BYTES = 64 << 20
"""The largest score sheet read: a club's sheet of a lifetime is a few hundred KiB."""


def read_sheet(path: str | os.PathLike[str], notices: list[str] | None = None
               ) -> tuple[list[SheetRow], list[Finding]]:
    """The rows of a CSV score sheet, and an ``E_PARSE`` finding for each row (or header) that cannot be read.

    Only a regular file is read (``open_regular``: a FIFO would wait for a writer), and at most
    ``MAX_SHEET_BYTES`` of it; a file that cannot be read is one finding at line 0.  Its encoding is
    detected (``decode_sheet``); a notice saying how it was read goes to ``notices`` when that is not plain
    UTF-8.
    """
    file = str(path)
    try:
        with open_regular(file) as fh:
            data = fh.read(MAX_SHEET_BYTES + 1)
    except OSError as exc:
        return [], [Finding(code="E_PARSE", message=open_problem(exc), file=file, line=0)]
    if len(data) > MAX_SHEET_BYTES:
        return [], [Finding(code="E_PARSE", message=f"the sheet is larger than {MAX_SHEET_BYTES >> 20} MiB",
                            file=file, line=0)]
    try:
        text, notice = decode_sheet(data)
    except SheetError as exc:
        return [], [Finding(code="E_PARSE", message=str(exc), file=file, line=0)]
    if notice is not None and notices is not None:
        notices.append(f"{file}: {notice}")
    return parse_sheet(text, file)


def decode_sheet(data: bytes) -> tuple[str, str | None]:
    """A sheet's text, and a notice when its encoding was not plain UTF-8.

    Spreadsheets on Windows save CSV as UTF-16 (with a byte-order mark) or in the system's code page
    (cp1250 for Slovenian, cp1252 for German): a byte-order mark decides first, then UTF-8, else
    ``charset_normalizer``'s guess, which the notice names.
    """
    if data.startswith(codecs.BOM_UTF8):
        try:
            return data[len(codecs.BOM_UTF8):].decode("utf-8"), None
        except UnicodeDecodeError as exc:
            raise SheetError(f"the sheet says it is UTF-8 but is not ({exc.reason} at byte {exc.start})") from None
    for bom, name in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                      (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(name), f"read as {name.upper()} (its byte-order mark says so)"
            except UnicodeDecodeError as exc:
                raise SheetError(f"the sheet's byte-order mark says {name.upper()}, but it is not "
                                 f"({exc.reason} at byte {exc.start})") from None
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None:
        raise SheetError("the sheet is not text in any encoding that could be recognised")
    return str(best), f"not UTF-8; read as {best.encoding} (a guess: save the sheet as UTF-8 to be sure)"


def parse_sheet(text: str, file: str | None = None) -> tuple[list[SheetRow], list[Finding]]:
    """The rows of a sheet's text (see ``read_sheet``); blank rows are skipped."""
    lines = text.splitlines()
    head = next((ln for ln in lines if ln.strip()), "")
    reader = csv.reader(io.StringIO(text), _dialect(head))
    rows: list[SheetRow] = []
    problems: list[Finding] = []
    cols: _Columns | None = None
    try:
        for cells in reader:
            line = reader.line_num
            if not any(c.strip() for c in cells):
                continue
            try:
                if cols is None:
                    cols = _header(cells)
                else:
                    rows.append(_row(cells, cols, line, file))
            except SheetError as exc:
                problems.append(Finding(code="E_PARSE", message=str(exc), file=file, line=line))
                if cols is None:
                    return [], problems
    except csv.Error as exc:
        problems.append(Finding(code="E_PARSE", message=f"line {reader.line_num}: {exc}", file=file,
                                line=reader.line_num))
    if cols is None and not problems:
        problems.append(Finding(code="E_PARSE", message="the sheet is empty: no header row", file=file, line=1))
    return rows, problems


# --------------------------------------------------------------------------- records


def playing_order(row: SheetRow) -> tuple[str, ...]:
    """The row's players forehand first: the ``forehand`` column, else rotating one seat per hand."""
    players = row.players
    if row.forehand is not None:
        start = players.index(row.forehand)
    else:
        start = ((row.hand or 1) - 1) % len(players)
    return players[start:] + players[:start]


def row_to_obj(row: SheetRow, options: Mapping[str, Any] | None = None,
               written_totals: Mapping[str, int] | None = None) -> dict[str, Any]:
    """The record of a hand row: no card play (``tricks: []``, ``sheet_only``), the written figures, and the
    running totals the sheet wrote right under the hand (``written_totals``), which the audit reads to tell
    whose figure is the slip when partners differ."""
    obj: dict[str, Any] = {"ruleset": "slovenian", "players": list(playing_order(row)), "contract": row.contract,
                           "tricks": [], "sheet_only": True, "seq": row.hand}
    for key in ("id", "session", "date", "declarer", "partner"):
        value = getattr(row, key)
        if value is not None:
            obj[key] = value
    if options:
        obj["options"] = dict(options)
    if row.won is not None:
        obj["won"] = row.won
    obj["recorded"] = {"scores": dict(row.scores)}
    if row.radelci is not None:
        obj["recorded"]["radelci"] = dict(row.radelci)
    if written_totals is not None:
        obj["written_totals"] = dict(written_totals)
    return obj


def _totals_under(rows: Sequence[SheetRow]) -> dict[int, Mapping[str, int]]:
    """For each hand row (by index) that the next row of its session is a total row under, that row's totals."""
    under: dict[int, Mapping[str, int]] = {}
    last: dict[str | None, int] = {}  # each session's last hand row so far
    for i, row in enumerate(rows):
        if row.total and row.session in last:
            under[last.pop(row.session)] = row.scores
        elif not row.total:
            last[row.session] = i
    return under


def rows_to_deals(rows: Sequence[SheetRow], options: Mapping[str, Any] | None = None
                  ) -> Iterator[Deal | Finding]:
    """A Deal for each hand row (total rows are not deals: their figures go with the hand above them, as
    ``written_totals``), or an ``E_PARSE`` finding when a row makes no record."""
    under = _totals_under(rows)
    for i, row in enumerate(rows):
        if row.total:
            continue
        try:
            yield deal_from_obj(row_to_obj(row, options, under.get(i)))
        except RecordError as exc:
            yield Finding(code="E_PARSE", message=f"line {row.line}: {exc}", file=row.file, line=row.line)


def import_sheet(in_path: str | os.PathLike[str], out_path: str | os.PathLike[str],
                 options: Mapping[str, Any] | None = None) -> Counts:
    """Write a sheet's hands as records (format by ``out_path``'s name); audit it.

    ``Counts.rejected`` counts the rows that could not be read; ``findings``
    holds their ``E_PARSE`` findings followed by the audit's ``A_SCORE_MISMATCH`` findings.
    """
    notices: list[str] = []
    rows, problems = read_sheet(in_path, notices)
    deals = []
    for item in rows_to_deals(rows, options):
        if isinstance(item, Finding):
            problems.append(item)
        else:
            deals.append(item)
    written = write_records(deals, out_path)
    return Counts(written, len(problems), tuple(problems) + tuple(audit_sheet(rows, options)), tuple(notices))


# --------------------------------------------------------------------------- the audit


def _finding(row: SheetRow, message: str, player: str | None = None) -> Finding:
    return Finding(CODE, message, player=player, file=row.file, line=row.line or None)


def _label(row: SheetRow) -> str:
    contract = CONTRACTS[row.contract].label if row.contract else "?"
    return f"hand {row.hand} ({contract})"


def _mondfang_amounts(options: SlovenianOptions) -> set[int]:
    """What a Mondfang line usually is: −value, −2 × value (announced or kontra'd), −4 × value."""
    return {-options.mondfang_value * k for k in (1, 2, 4)}


class SheetAuditor:
    """Audits sheet rows one at a time, keeping each session's radelci and running totals.

    Rows of one session (the ``session`` column; none: one session) are
    expected in sheet order; each session starts with nobody holding a radelc.
    """

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        try:
            self.options = slovenian_options(options)
        except OptionError as exc:
            raise SheetError(str(exc)) from None
        self._held: dict[str | None, dict[str, int]] = {}
        self._totals: dict[str | None, dict[str, int]] = {}
        self._open: dict[str | None, list[tuple[SheetRow, list[Finding]]]] = {}
        self.withdrawn: list[Finding] = []
        """The findings of earlier rows the last ``audit`` replaced: partners' differing figures a total row
        settled, each now one finding on the slip (returned by that ``audit``)."""

    def audit(self, row: SheetRow) -> list[Finding]:
        """The ``A_SCORE_MISMATCH`` findings of one row, in check order (a total row's also settle earlier rows
        of its session whose partners differ: see ``withdrawn``)."""
        held = self._held.setdefault(row.session, {p: 0 for p in row.players})
        totals = self._totals.setdefault(row.session, {p: 0 for p in row.players})
        opts = self.options
        self.withdrawn = []
        if row.total:
            return [*self._settled(row, totals, held), *_check_totals(row, totals, held, opts)]
        partners, undecided = _check_partners(row, held, opts)
        if undecided:
            self._open.setdefault(row.session, []).append((row, partners))
        findings = [*_check_writers(row), *_check_figures(row, held, opts), *partners]
        expected = _radelci_after(row, held, opts)
        if row.radelci is not None and opts.radelci:
            findings.extend(_check_radelci(row, held, expected))
            self._held[row.session] = dict(row.radelci)
        else:
            self._held[row.session] = expected[0]
        for p, value in row.scores.items():
            totals[p] = totals.get(p, 0) + value
        return findings

    def _settled(self, total: SheetRow, totals: Mapping[str, int], held: Mapping[str, int]) -> list[Finding]:
        """The open partner disputes of the total row's session that it settles (their findings withdrawn)."""
        settled, still_open = [], []
        for dispute, findings in self._open.pop(total.session, []):
            finding = _settle(dispute, total, totals, held, self.options)
            if finding is None:
                still_open.append((dispute, findings))
            else:
                settled.append(finding)
                self.withdrawn.extend(findings)
        if still_open:
            self._open[total.session] = still_open
        return settled


def audit_sheet(rows: Iterable[SheetRow], options: Mapping[str, Any] | None = None) -> list[Finding]:
    """Every arithmetic problem of a sheet that shows without the cards, as ``A_SCORE_MISMATCH`` findings."""
    auditor = SheetAuditor(options)
    found: list[Finding] = []
    withdrawn: list[Finding] = []
    for row in rows:
        found.extend(auditor.audit(row))
        withdrawn.extend(auditor.withdrawn)
    return sorted((f for f in found if f not in withdrawn), key=lambda f: f.line or 0)


def deal_to_rows(deal: Deal) -> list[SheetRow]:
    """The sheet rows of a sheet-only record, for auditing it: its hand row (``partner``, ``won`` from its extra
    keys), and the total row written under it when it has ``written_totals``."""
    recorded = deal.recorded
    declarer = deal.declarer if isinstance(deal.declarer, str) else None
    partner, won = deal.extra.get("partner"), deal.extra.get("won")
    rows = [SheetRow(0, deal.players, deal.seq or 0, dict(recorded.scores) if recorded else {},
                     session=deal.session, date=deal.date, id=deal.id, contract=deal.contract, declarer=declarer,
                     partner=partner if isinstance(partner, str) else None,
                     won=won if isinstance(won, bool) else None,
                     radelci=None if recorded is None or recorded.radelci is None else dict(recorded.radelci))]
    written = deal.extra.get("written_totals")
    if isinstance(written, dict) and all(isinstance(v, int) and not isinstance(v, bool) for v in written.values()):
        rows.append(SheetRow(0, deal.players, None, {p: v for p, v in written.items() if p in deal.players},
                             session=deal.session, date=deal.date))
    return rows


def _check_writers(row: SheetRow) -> Iterator[Finding]:
    """Who writes: the playing side in declared contracts (others at most a Mondfang or a penalty)."""
    contract = CONTRACTS[row.contract]  # type: ignore[index]
    if contract.is_klop:
        return
    if row.declarer is None:
        yield _finding(row, f"{_label(row)} names no declarer")
        return
    if row.declarer not in row.scores:
        yield _finding(row, f"in {_label(row)} the declarer {row.declarer} wrote nothing", row.declarer)
    figure = row.scores.get(row.declarer)
    if row.won is not None and figure is not None and figure != 0 and (figure > 0) != row.won:
        outcome = "won" if row.won else "lost"
        yield _finding(row, f"in {_label(row)} {row.declarer} {outcome}, but wrote {figure:+d}", row.declarer)
    side = {row.declarer, row.partner}
    for p, value in row.scores.items():
        if p not in side and value > 0:
            yield _finding(row, f"in {_label(row)} {p} was not on the playing side but wrote {value:+d}; only "
                                "the declarer's side writes (others at most a Mondfang or a penalty)", p)


def _check_partners(row: SheetRow, held: Mapping[str, int], opts: SlovenianOptions) -> tuple[list[Finding], bool]:
    """A partner exists only in Tri/Dva/Ena with 4 players, and writes the declarer's figure: the findings, and
    whether the row leaves open whose figure is wrong.

    When the partners' figures differ, the finding names the one whose figure no game gives (the checks of
    the declarer's figure, ``_check_figures``); when both or neither are possible the row alone cannot tell
    whose is wrong, so each partner gets a finding (the declarer's figure is not taken as the right one) until
    a total row settles it (``_settle``).
    """
    contract = CONTRACTS[row.contract]  # type: ignore[index]
    if row.partner is None:
        return [], False
    if not contract.calls_king or len(row.players) == 3:
        return [_finding(row, f"{_label(row)} has no partner, but the sheet names {row.partner}", row.partner)], False
    if row.partner == row.declarer:
        return [_finding(row, f"in {_label(row)} {row.partner} is named both declarer and partner", row.partner)], \
            False
    mine, theirs = row.scores.get(row.partner), row.scores.get(row.declarer or "")
    if mine is None:
        return [_finding(row, f"in {_label(row)} the partner {row.partner} wrote nothing; partners write the "
                              "declarer's figure", row.partner)], False
    if theirs is None or mine == theirs or mine - theirs in _mondfang_amounts(opts) \
            or theirs - mine in _mondfang_amounts(opts):
        return [], False
    assert row.declarer is not None  # the declarer wrote ``theirs``
    pair = {row.declarer: row.partner, row.partner: row.declarer}
    wrong = [p for p in pair if not _possible_figure(row, row.scores[p], held, opts)]
    if len(wrong) == 1:
        return [_partners_differ(row, wrong[0], f"no {contract.label} gives {row.scores[wrong[0]]:+d}")], False
    return [_partners_differ(row, p, "the row alone cannot tell whose is right") for p in pair], True


def _partners_differ(row: SheetRow, p: str, why: str) -> Finding:
    """The finding on partner ``p``'s figure, where the partners wrote different ones."""
    other = row.partner if p == row.declarer else row.declarer
    assert other is not None
    return _finding(row, f"in {_label(row)} the partners wrote different figures: {p} {row.scores[p]:+d}, "
                         f"{other} {row.scores[other]:+d}; {why}", p)


def _settle(dispute: SheetRow, total: SheetRow, totals: Mapping[str, int], held: Mapping[str, int],
            opts: SlovenianOptions) -> Finding | None:
    """The finding on the partner whose figure is the slip, when a total row tells: that partner's written total
    adds up with the other partner's figure in place of their own, and the other's adds up as written."""
    assert dispute.declarer is not None and dispute.partner is not None

    def adds_up(p: str, figures: int) -> bool:
        closed = figures - 100 * held.get(p, 0) if opts.radelci else figures
        return total.scores.get(p) in (figures, closed)

    for slip, other in ((dispute.declarer, dispute.partner), (dispute.partner, dispute.declarer)):
        mine, theirs = dispute.scores[slip], dispute.scores[other]
        if adds_up(other, totals.get(other, 0)) and not adds_up(slip, totals.get(slip, 0)) \
                and adds_up(slip, totals.get(slip, 0) - mine + theirs):
            where = f" (line {total.line})" if total.line else ""
            return _partners_differ(dispute, slip, f"{slip}'s written total{where} adds up only with {other}'s "
                                                   f"{theirs:+d} here, so {slip}'s {mine:+d} is the slip")
    return None


def _possible_figure(row: SheetRow, figure: int, held: Mapping[str, int], opts: SlovenianOptions) -> bool:
    """Whether the declarer could have written ``figure`` in this row (what ``_check_figures`` accepts)."""
    assert row.declarer is not None
    return not any(_check_figures(replace(row, scores={**row.scores, row.declarer: figure}), held, opts))


def _check_figures(row: SheetRow, held: Mapping[str, int], opts: SlovenianOptions) -> Iterator[Finding]:
    contract = CONTRACTS[row.contract]  # type: ignore[index]
    if contract.is_klop:
        yield from _check_klop(row, held, opts)
        return
    if row.declarer is None or row.declarer not in row.scores:
        return
    figure = row.scores[row.declarer]
    doubled = opts.radelci and held.get(row.declarer, 0) > 0
    if contract.normal:
        yield from _check_rounding(row, figure, doubled, opts)
    else:
        yield from _check_flat(row, figure, doubled, opts)


def _without_mondfang(figure: int, opts: SlovenianOptions, contract: str) -> set[int]:
    """The figure and, where a Mondfang may be on the line, the figure without it."""
    if contract not in ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "solo_brez"):
        return {figure}
    return {figure} | {figure - m for m in _mondfang_amounts(opts)}


def _check_rounding(row: SheetRow, figure: int, doubled: bool, opts: SlovenianOptions) -> Iterator[Finding]:
    """Under nearest-5 rounding a normal game's figure is a multiple of 5 (of 10 when a radelc doubles it)."""
    if opts.diff_rounding != "nearest5":
        return
    step = 10 if doubled else 5
    if not any(f % step == 0 for f in _without_mondfang(figure, opts, row.contract or "")):
        why = " (doubled by the declarer's radelc)" if doubled else ""
        yield _finding(row, f"in {_label(row)} {row.declarer} wrote {figure:+d}, but with the difference "
                            f"rounded to 5 every figure is a multiple of {step}{why}", row.declarer)


def _check_flat(row: SheetRow, figure: int, doubled: bool, opts: SlovenianOptions) -> Iterator[Finding]:
    """Berač and higher: ± value × kontra, × 2 when the declarer holds a radelc."""
    contract = CONTRACTS[row.contract]  # type: ignore[index]
    factor = 2 if doubled else 1
    allowed = {s * contract.value * k * factor for s in (1, -1) for k in KONTRA_FACTORS}
    if _without_mondfang(figure, opts, contract.name) & allowed:
        return
    other = {s * contract.value * k * (3 - factor) for s in (1, -1) for k in KONTRA_FACTORS}
    if _without_mondfang(figure, opts, contract.name) & other:
        state = "holds a radelc, so the game counts double" if doubled else "holds no radelc, so nothing doubles"
        yield _finding(row, f"in {_label(row)} {row.declarer} {state}, but wrote {figure:+d}", row.declarer)
    else:
        yield _finding(row, f"in {_label(row)} {row.declarer} wrote {figure:+d}; a {contract.label} is worth "
                            f"±{contract.value} (× kontra, × 2 with a radelc)", row.declarer)


def _klop_result(value: int, doubled: bool) -> bool:
    """Whether a Klop figure is possible: +70, −70, or −(0 … 35) points, all × 2 with a radelc."""
    factor = 2 if doubled else 1
    return value in (70 * factor, -70 * factor) or (-35 * factor <= value <= 0 and value % factor == 0)


def _check_klop(row: SheetRow, held: Mapping[str, int], opts: SlovenianOptions) -> Iterator[Finding]:
    """Klop: each figure a possible result (doubled for a radelc holder); at ±70 only those players score."""
    double_rule = opts.radelci and opts.klop_radelc_double
    full = [p for p, v in row.scores.items() if abs(v) in (70, 140)]
    for p, value in row.scores.items():
        doubled = double_rule and held.get(p, 0) > 0
        if _klop_result(value, doubled):
            continue
        if _klop_result(value, not doubled) and double_rule:
            state = "holds a radelc, so the Klop result counts double" if doubled else "holds no radelc"
            yield _finding(row, f"in {_label(row)} {p} {state}, but wrote {value:+d}", p)
        else:
            yield _finding(row, f"in {_label(row)} {p} wrote {value:+d}, which no Klop result gives "
                                "(+70, −70 or minus the points taken)", p)
    if full:
        for p, value in row.scores.items():
            if p not in full and value != 0:
                yield _finding(row, f"in {_label(row)} {', '.join(full)} scored ±70, so only they write; "
                                    f"{p} wrote {value:+d}", p)


def _radelci_after(row: SheetRow, held: Mapping[str, int], opts: SlovenianOptions) -> list[dict[str, int]]:
    """The radelci each player may hold after the hand (several when the row alone cannot tell)."""
    contract = CONTRACTS[row.contract]  # type: ignore[index]
    after = dict(held)
    if not opts.radelci:
        return [after]
    if contract.is_klop:
        for p, value in row.scores.items():
            if klop_cancels(value, opts) and after.get(p, 0) > 0:
                after[p] -= 1
    elif row.declarer is not None and row.scores.get(row.declarer, 0) > 0:  # won: the scorer's rule says whose
        side = (row.declarer,) if row.partner in (None, row.declarer) else (row.declarer, row.partner)
        for p in cancelled_by_win(side, after, opts):
            after[p] -= 1
    awarded = {p: n + 1 for p, n in after.items()}
    if contract.radelc_contract:
        return [awarded]
    figure = abs(row.scores.get(row.declarer or "", 0))
    return [after, awarded] if figure >= 250 else [after]  # a valat line (only the cards could tell)


def _check_radelci(row: SheetRow, before: Mapping[str, int], expected: list[dict[str, int]]) -> Iterator[Finding]:
    """The radelci the sheet shows after the hand against those the hand gives (``expected``)."""
    written = dict(row.radelci or {})
    if written in expected:
        return
    want = expected[0]
    for p in row.players:
        if written.get(p, 0) != want.get(p, 0):
            yield _finding(row, f"after {_label(row)} {p} should hold {want.get(p, 0)} radelci "
                                f"(before: {before.get(p, 0)}), but the sheet says {written.get(p, 0)}", p)


def _check_totals(row: SheetRow, totals: Mapping[str, int], held: Mapping[str, int],
                  opts: SlovenianOptions) -> Iterator[Finding]:
    """A total row: each written total is the sum of the player's figures (or that less −100 per open radelc)."""
    for p, value in row.scores.items():
        plain = totals.get(p, 0)
        closed = plain - 100 * held.get(p, 0) if opts.radelci else plain
        if value not in (plain, closed):
            extra = f" ({closed} after the session-end radelci)" if closed != plain else ""
            yield _finding(row, f"the total for {p} is {value}, but the figures above add up to {plain}{extra}", p)
