"""Tests of tarock.formats.sheet_csv: reading score-sheet CSV files, the records they make, and the audit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarock.formats.codec import dumps
from tarock.formats.reader import read_records
from tarock.formats.sheet_csv import (
    SheetAuditor,
    audit_sheet,
    deal_to_rows,
    import_sheet,
    parse_sheet,
    playing_order,
    read_sheet,
    rows_to_deals,
)
from tarock.formats.trk import dumps_trk, loads_trk
from tests.support.paths import ROOT

EXAMPLE = ROOT / "data" / "examples" / "sheets" / "seed_session.csv"

HEAD = "hand,contract,declarer,partner,Ana,Boris,Cilka,David,radelci\n"


def audit(text: str, **options: object) -> list[str]:
    rows, problems = parse_sheet(text)
    assert problems == []
    return [f.message for f in audit_sheet(rows, options or None)]


def test_the_seed_session_sheet_audits_clean_and_imports(tmp_path: Path) -> None:
    rows, problems = read_sheet(EXAMPLE)
    assert problems == [] and len(rows) == 5 and rows[-1].total
    assert audit_sheet(rows) == []
    counts = import_sheet(EXAMPLE, tmp_path / "out.jsonl")
    assert (counts.written, counts.rejected, counts.findings) == (4, 0, ())
    deals = [i.deal for i in read_records(tmp_path / "out.jsonl")]
    seed = [i.deal for i in read_records(EXAMPLE.parent.parent / "seed_session.jsonl")]
    for mine, theirs in zip(deals, seed):
        assert mine is not None and theirs is not None
        assert (mine.players, mine.contract, mine.declarer, mine.seq, mine.session) == (
            theirs.players, theirs.contract, theirs.declarer, theirs.seq, theirs.session)
        assert mine.recorded == theirs.recorded
        assert mine.tricks == () and mine.extra["sheet_only"] is True


def test_sheet_records_round_trip_through_trk(tmp_path: Path) -> None:
    rows, _ = read_sheet(EXAMPLE)
    for deal in rows_to_deals(rows):
        assert dumps(loads_trk(dumps_trk(deal))) == dumps(deal)  # type: ignore[arg-type]


def test_semicolons_bom_unicode_minus_and_quoted_cells() -> None:
    text = "\ufeffHand;Contract;Declarer;Partner;Ana;Boris;Cilka;David;Radelci\n1;Solo tri;Ana;;\u221240;;;;\n" \
           '2;klop;;;-10;0;"-20";+70;"Ana, Boris"\n'
    rows, problems = parse_sheet(text.lstrip("\ufeff"))
    assert problems == []
    assert rows[0].contract == "solo_tri" and rows[0].scores == {"Ana": -40}
    assert rows[1].scores == {"Ana": -10, "Boris": 0, "Cilka": -20, "David": 70}
    assert rows[1].radelci == {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 0}


def test_forehand_rotates_unless_a_column_says() -> None:
    rows, _ = parse_sheet("hand,contract,forehand,A,B,C\n1,klop,,0,0,0\n2,klop,,0,0,0\n5,klop,C,0,0,0\n")
    assert [playing_order(r) for r in rows] == [("A", "B", "C"), ("B", "C", "A"), ("C", "A", "B")]


def test_per_player_radelci_columns() -> None:
    rows, problems = parse_sheet("hand,contract,declarer,A,B,C,radelci_A,radelci_B,radelci_C\n"
                                 "1,berac,A,70,,,1,1,1\n")
    assert problems == [] and rows[0].radelci == {"A": 1, "B": 1, "C": 1}


@pytest.mark.parametrize("text, expected", [
    ("", "the sheet is empty"),
    ("contract,Ana,Boris,Cilka\n", "needs a 'hand' column"),
    ("hand,contract,Ana,Boris\n", "3 or 4 player columns"),
    ("hand,contract,Ana,Ana,Boris,Cilka\n", "given twice"),
    ("hand,contract,Ana,,Boris,Cilka\n", "a column has no name"),
    ("hand,contract,Ana,Boris,Cilka,radelci_Zoran\n", "radelci column for 'Zoran'"),
    (HEAD + "one,klop,,,0,0,0,0,\n", "expected a hand number or 'total'"),
    (HEAD + "1,,,,0,0,0,0,\n", "every hand needs its contract"),
    (HEAD + "1,dvojka,Ana,,0,0,0,0,\n", "unknown contract 'dvojka'"),
    (HEAD + "1,dva,Zoran,,0,0,0,0,\n", "'Zoran' is not one of the players"),
    (HEAD + "1,dva,Ana,,forty,,,,\n", "column Ana: expected a whole number, found 'forty'"),
    (HEAD + "1,berac,Ana,,70,,,,Ana Zoran\n", "'Zoran' is not one of the players"),
    ("hand,contract,won,A,B,C\n1,tri,maybe,10,,\n", "column won: expected yes or no"),
])
def test_unreadable_sheets_and_rows_are_explained(text: str, expected: str) -> None:
    _, problems = parse_sheet(text)
    assert problems and problems[0].code == "E_PARSE" and expected in problems[0].message


def test_a_bad_row_does_not_stop_the_others(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text(HEAD + "1,dva,Ana,Boris,+30,+30,,,\n2,dva,Ana,Boris,x,,,,\n3,klop,,,-10,-10,-20,-30,\n")
    counts = import_sheet(path, tmp_path / "out.trk")
    assert (counts.written, counts.rejected) == (2, 1)
    assert counts.findings[0].line == 3


# --------------------------------------------------------------------------- the audit


def test_radelci_must_be_handed_out_after_klop_and_berac() -> None:
    messages = audit(HEAD + "1,berac,Ana,,+70,,,,Ana Boris Cilka\n")
    assert messages == ["after hand 1 (Berač) David should hold 1 radelci (before: 0), but the sheet says 0"]


def test_a_won_game_cancels_the_declarers_radelc() -> None:
    text = HEAD + "1,klop,,,-10,-20,-30,0,Ana Boris Cilka David\n2,solo tri,Ana,,+100,,,,Ana Boris Cilka David\n"
    assert audit(text) == ["after hand 2 (Solo tri) Ana should hold 0 radelci (before: 1), but the sheet says 1"]


def test_a_won_game_cancels_each_doubled_players_radelc_under_each_player() -> None:
    # hand 1, a Klop: everyone gets a radelc (nobody took +70, so none is cancelled): all hold 1.
    # hand 2, Ana and Boris win a Tri.  radelc_scope=each_player: each of them holding a radelc had their
    # own score doubled, and the win cancels each one's (tarock.rules.slovenian.scoring.cancelled_by_win):
    # Ana 0, Boris 0, Cilka 1, David 1.  Under the default, declarer: only Ana's goes, Boris keeps his.
    text = HEAD + "1,klop,,,-10,-20,-30,0,Ana Boris Cilka David\n2,tri,Ana,Boris,+60,+60,,,{after}\n"
    assert audit(text.format(after="Cilka David"), radelc_scope="each_player") == []
    assert audit(text.format(after="Boris Cilka David"), radelc_scope="each_player") == [
        "after hand 2 (Tri) Boris should hold 0 radelci (before: 1), but the sheet says 1"]
    assert audit(text.format(after="Boris Cilka David")) == []
    assert audit(text.format(after="Cilka David")) == [
        "after hand 2 (Tri) Boris should hold 1 radelci (before: 1), but the sheet says 0"]


def test_a_radelc_doubles_the_declarers_figure() -> None:
    base = HEAD + "1,klop,,,-10,-20,-30,0,Ana Boris Cilka David\n"
    after = '"Ana 2, Boris, Cilka 2, David 2"'
    assert audit(base + f"2,berac,Boris,,,+140,,,{after}\n") == []
    assert audit(base + f"2,berac,Boris,,,+70,,,{after}\n") == [
        "in hand 2 (Berač) Boris holds a radelc, so the game counts double, but wrote +70"]
    assert audit(HEAD + "1,berac,Boris,,,+75,,,Ana Boris Cilka David\n") == [
        "in hand 1 (Berač) Boris wrote +75; a Berač is worth ±70 (× kontra, × 2 with a radelc)"]
    assert audit(base + "2,dva,Boris,Ana,+45,+45,,,Ana Cilka David\n") == [
        "in hand 2 (Dva) Boris wrote +45, but with the difference rounded to 5 every figure is a multiple of 10 "
        "(doubled by the declarer's radelc)"]


def test_partners_write_the_same_figure() -> None:
    # +30 and +35 are both possible Dva figures: the row cannot tell whose is wrong, so each is disputed
    assert audit(HEAD + "1,dva,Ana,Cilka,+30,,+35,,\n") == [
        "in hand 1 (Dva) the partners wrote different figures: Ana +30, Cilka +35; the row alone cannot tell "
        "whose is right",
        "in hand 1 (Dva) the partners wrote different figures: Cilka +35, Ana +30; the row alone cannot tell "
        "whose is right"]
    # +32 is no Dva figure (not a multiple of 5, nor one less a Mondfang of 21, 42 or 84): the declarer's is wrong
    assert audit(HEAD + "1,dva,Ana,Cilka,+32,,+30,,\n")[1:] == [
        "in hand 1 (Dva) the partners wrote different figures: Ana +32, Cilka +30; no Dva gives +32"]
    assert audit(HEAD + "1,dva,Ana,Cilka,+30,,+9,,\n") == []  # Cilka also paid a Mondfang (−21)
    assert audit(HEAD + "1,dva,Ana,Cilka,+30,,,,\n") == [
        "in hand 1 (Dva) the partner Cilka wrote nothing; partners write the declarer's figure"]
    assert audit(HEAD + "1,solo tri,Ana,Cilka,+50,,+50,,\n")[0].startswith("hand 1 (Solo tri) has no partner")


def test_signs_and_who_writes() -> None:
    assert audit(HEAD + "1,tri,Ana,Cilka,+20,+20,+20,,\n") == [
        "in hand 1 (Tri) Boris was not on the playing side but wrote +20; only the declarer's side writes "
        "(others at most a Mondfang or a penalty)"]
    assert audit("hand,contract,declarer,won,A,B,C\n1,tri,A,no,+20,,\n") == ["in hand 1 (Tri) A lost, but wrote +20"]
    assert audit(HEAD + "1,tri,Ana,Cilka,,,,,\n") == ["in hand 1 (Tri) the declarer Ana wrote nothing",
                                                       "in hand 1 (Tri) the partner Cilka wrote nothing; partners "
                                                       "write the declarer's figure"]


def test_difference_rounding_only_under_nearest5() -> None:
    assert audit(HEAD + "1,tri,Ana,Cilka,+23,,+23,,\n") == []  # +65 less an announced Mondfang (−42)
    text = HEAD + "1,tri,Ana,Cilka,+22,,+22,,\n"
    assert len(audit(text)) == 1
    assert audit(text, diff_rounding="none") == []


def test_klop_figures() -> None:
    head = "hand,contract,declarer,partner,Ana,Boris,Cilka,David\n"
    assert audit(head + "1,klop,,,-10,-20,-30,-5\n") == []
    assert audit(head + "1,klop,,,+70,-20,0,0\n") == [
        "in hand 1 (Klop) Ana scored ±70, so only they write; Boris wrote -20"]
    assert audit(head + "1,klop,,,+50,0,0,0\n")[0].startswith("in hand 1 (Klop) Ana wrote +50, which no Klop")


def test_totals() -> None:
    body = HEAD + "1,dva,Ana,Cilka,+30,,+30,,\n2,klop,,,-10,-20,-30,-5,Ana Boris Cilka David\n"
    assert audit(body + "total,,,,20,-20,0,-5,\n") == []
    assert audit(body + "total,,,,-80,-20,0,-5,\n") == []  # after the session-end −100 for Ana's radelc
    assert audit(body + "total,,,,25,-20,0,-5,\n") == [
        "the total for Ana is 25, but the figures above add up to 20 (-80 after the session-end radelci)"]


def test_sessions_are_audited_apart() -> None:
    text = ("session,hand,contract,declarer,A,B,C,radelci\n"
            "s1,1,berac,A,+70,,,A B C\ns2,1,tri,B,,+10,,\ns1,2,tri,A,+20,,,A B C\n")
    assert audit(text) == ["after hand 2 (Tri) A should hold 0 radelci (before: 1), but the sheet says 1"]


def test_sheet_only_records_are_audited_one_by_one(tmp_path: Path) -> None:
    """What ``tarock check`` can run on sheet-only records: the same audit, deal by deal, per session."""
    import_sheet(EXAMPLE, tmp_path / "s.jsonl")
    deals = [i.deal for i in read_records(tmp_path / "s.jsonl")]
    auditor = SheetAuditor()
    assert all(auditor.audit(row) == [] for d in deals for row in deal_to_rows(d))  # type: ignore[arg-type]
    [hand_3] = deal_to_rows(deals[2])  # type: ignore[arg-type]  # no total row under hand 3
    alone = SheetAuditor().audit(hand_3)  # hand 3 without hands 1-2
    assert sorted((f.player or "", f.line) for f in alone) == [("Ana", None), ("Boris", None), ("David", None)]
    assert all("should hold 0 radelci (before: 0), but the sheet says 1" in f.message for f in alone)


def test_a_total_row_tells_whose_differing_figure_is_the_slip() -> None:
    # Dva, David declares, Ana partners, nobody holds a radelc (the sheet starts the session; no Klop or Berač):
    # -150 and -140 are both Dva figures (20 + a difference rounded to 5), so the row alone cannot tell.  The total
    # row says David -140, Ana -140: Ana's adds up as written, David's only with Ana's -140 in place of his -150.
    rows = "hand,contract,declarer,partner,Ana,Boris,Cilka,David\n1,dva,David,Ana,-140,,,-150\n"
    assert audit(rows + "total,,,,-140,0,0,-140\n") == [
        "in hand 1 (Dva) the partners wrote different figures: David -150, Ana -140; David's written total "
        "(line 3) adds up only with Ana's -140 here, so David's -150 is the slip",
        "the total for David is -140, but the figures above add up to -150"]
    # the other way round: the partner's figure is the slip, and the declarer's is not marked
    swapped = "hand,contract,declarer,partner,Ana,Boris,Cilka,David\n1,dva,David,Ana,-150,,,-140\n"
    assert [m for m in audit(swapped + "total,,,,-140,0,0,-140\n") if "partners" in m] == [
        "in hand 1 (Dva) the partners wrote different figures: Ana -150, David -140; Ana's written total (line 3) "
        "adds up only with David's -140 here, so Ana's -150 is the slip"]
    # no total row, or totals that add up for neither (both wrong as written and as swapped): both stay marked
    for text in (rows, rows + "total,,,,-100,0,0,-100\n"):
        assert [m for m in audit(text) if "partners" in m] == [
            "in hand 1 (Dva) the partners wrote different figures: David -150, Ana -140; the row alone cannot tell "
            "whose is right",
            "in hand 1 (Dva) the partners wrote different figures: Ana -140, David -150; the row alone cannot tell "
            "whose is right"]


def test_a_total_row_goes_with_the_hand_above_it_in_its_own_session() -> None:
    # two sessions interleaved: s1's total row is under s1's hand 2 (line 4), though s2's hand 1 is between them
    text = ("session,hand,contract,declarer,A,B,C\ns1,1,tri,A,+20,,\ns1,2,tri,B,,+30,\ns2,1,dva,C,,,+40\n"
            "s1,total,,,20,30,0\ns2,2,ena,A,+50,,\n")
    rows, problems = parse_sheet(text)
    assert problems == []
    deals = list(rows_to_deals(rows))
    written = [(d.session, d.seq, d.extra.get("written_totals")) for d in deals]  # type: ignore[union-attr]
    assert written == [("s1", 1, None), ("s1", 2, {"A": 20, "B": 30, "C": 0}), ("s2", 1, None), ("s2", 2, None)]
