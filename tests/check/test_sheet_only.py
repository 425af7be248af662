"""Sheet-only records (``tarock import sheet``): checked, scored and stored from their recorded figures."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import orjson
from typer.testing import CliRunner

from tarock.cli import app
from tarock.deal import Recorded
from tarock.engine import replay
from tarock.formats.codec import deal_from_obj
from tests.support.paths import ROOT

SHEET = ROOT / "data" / "examples" / "sheets" / "seed_session.csv"
PLAYERS = ("Ana", "Boris", "Cilka", "David")
runner = CliRunner()


def run(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.output


def imported(tmp_path: Path, sheet: Path | str = SHEET, name: str = "sheet.jsonl") -> Path:
    if isinstance(sheet, str):
        (tmp_path / "in.csv").write_text(sheet, encoding="utf-8")
        sheet = tmp_path / "in.csv"
    out = tmp_path / name
    code, _ = run("import", "sheet", str(sheet), "-o", str(out))
    assert out.exists(), code
    return out


def checks(path: Path) -> tuple[int, list[dict]]:
    code, out = run("check", "-f", "json", str(path))
    return code, [orjson.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_the_engine_does_not_replay_a_sheet_only_record() -> None:
    deal = deal_from_obj({"ruleset": "slovenian", "players": list(PLAYERS), "contract": "dva", "declarer": "David",
                          "tricks": [], "sheet_only": True, "partner": "Ana",
                          "recorded": {"scores": {"David": -140, "Ana": -140}}})
    rp = replay(deal)
    assert rp.findings == [] and rp.status == "ok"
    assert rp.sheet_only and rp.won is False and rp.facts is None and rp.card_points is None
    assert rp.player(rp.declarer) == "David" and rp.player(rp.partner) == "Ana"
    won = deal_from_obj({**json.loads(json.dumps({"ruleset": "slovenian", "players": list(PLAYERS)})),
                         "contract": "tri", "declarer": "Ana", "tricks": [], "sheet_only": True, "won": True,
                         "recorded": {"scores": {"Ana": 0}}})
    assert replay(won).won is True  # the sheet's won column wins over the (zero) figure
    unknown = deal_from_obj({"ruleset": "slovenian", "players": list(PLAYERS), "contract": "berac",
                             "tricks": [], "sheet_only": True})
    assert [f.code for f in replay(unknown).findings] == ["E_BID"]  # no declarer: still checked


def test_sheet_only_bidding_is_checked() -> None:
    deal = deal_from_obj({"ruleset": "slovenian", "players": list(PLAYERS), "contract": "tri", "declarer": "Ana",
                          "bidding": [["Boris", "tri"], ["Cilka", "pass"], ["David", "pass"], ["Ana", "pass"]],
                          "tricks": [], "sheet_only": True, "recorded": {"scores": {"Ana": 10}}})
    codes = [f.code for f in replay(deal).findings]
    assert codes and set(codes) == {"E_BID"}
    assert isinstance(deal.recorded, Recorded)


def test_check_an_imported_sheet(tmp_path: Path) -> None:
    code, objs = checks(imported(tmp_path))
    assert code == 0
    assert [o["status"] for o in objs] == ["ok"] * 4
    assert all(o["findings"] == [] and o["sheet_only"] and o["card_points"] is None and o["breakdown"] is None
               for o in objs)
    assert [o["won"] for o in objs] == [True, True, True, False]
    assert [{p: v for p, v in o["scores"].items() if v} for o in objs] == [
        {"Ana": 40, "Cilka": 40}, {"Boris": 70}, {"Cilka": 150}, {"David": -140, "Ana": -140}]
    assert all(o["scores"][p] == o["recorded"].get(p, 0) for o in objs for p in o["players"])
    assert objs[3]["radelci_after"] == {"David": 1, "Ana": 1, "Boris": 1, "Cilka": 0}
    assert objs[0]["partner"] == "Ana" and objs[3]["partner"] == "Ana"


def test_score_reproduces_the_sheet(tmp_path: Path) -> None:
    path = imported(tmp_path)
    code, out = run("score", "-f", "json", str(path))
    assert code == 0
    sheet = orjson.loads(out.splitlines()[0])
    assert sheet["totals"] == {"Ana": -100, "Boris": 70, "Cilka": 190, "David": -140}  # the sheet's total row
    assert sheet["radelci"] == {"Ana": 1, "Boris": 1, "Cilka": 0, "David": 1}
    assert sheet["final"] == {"Ana": -200, "Boris": -30, "Cilka": 190, "David": -240}
    assert sheet["hands"][0]["cells"] == {"Ana": 40, "Boris": None, "Cilka": 40, "David": None}
    assert all(h["sheet_only"] and h["disputed"] == [] for h in sheet["hands"])
    code, text = run("score", str(path))
    table, _, legend = text.partition("Legend")  # the legend explains "(audit)"; the sheet marks no cell so
    assert code == 0 and "[sheet]" in table and "+190" in table and "(audit)" not in table
    code, out = run("score", "-f", "csv", str(path))
    rows = list(csv.DictReader(io.StringIO(out)))
    assert {(r["hand"], r["player"], r["score"]) for r in rows if r["score"]} >= {("4", "David", "-140")}


BAD = ("session,hand,contract,declarer,partner,Ana,Boris,Cilka,David,radelci\n"
       "s,1,Ena,Cilka,Ana,+40,,+35,,\n"  # the partner writes a different figure
       "s,2,Berač,Boris,,,+70,,,Ana Boris Cilka David\n"
       "s,3,Berač,Boris,,,+70,,,\"Ana 2, Boris, Cilka 2, David 2\"\n")  # a radelc doubles it: +140


def test_a_wrong_figure_is_an_audit_mismatch(tmp_path: Path) -> None:
    code, objs = checks(imported(tmp_path, BAD))
    assert code == 0  # audit findings do not fail the check
    assert [o["status"] for o in objs] == ["ok"] * 3
    messages = [[f["message"] for f in o["findings"] if f["code"] == "A_SCORE_MISMATCH"] for o in objs]
    assert messages[0] == [  # both figures an Ena gives: the row cannot tell whose is wrong
        "in hand 1 (Ena) the partners wrote different figures: Cilka +35, Ana +40; the row alone cannot tell "
        "whose is right",
        "in hand 1 (Ena) the partners wrote different figures: Ana +40, Cilka +35; the row alone cannot tell "
        "whose is right"]
    assert messages[1] == []
    assert messages[2] == ["in hand 3 (Berač) Boris holds a radelc, so the game counts double, but wrote +70"]
    assert objs[2]["findings"][0]["line"] == 3 and objs[2]["findings"][0]["player"] == "Boris"
    code, out = run("score", "-f", "json", str(tmp_path / "sheet.jsonl"))
    assert code == 1
    hands = orjson.loads(out.splitlines()[0])["hands"]
    assert [h["disputed"] for h in hands] == [["Ana", "Cilka"], [], ["Boris"]]
    code, text = run("score", str(tmp_path / "sheet.jsonl"))
    assert code == 1 and "(audit)" in text and "counts double" in text


def test_ingest_and_report_count_the_sheets_hands(tmp_path: Path) -> None:
    path = imported(tmp_path)
    store = tmp_path / "store"
    code, out = run("ingest", str(path), "--store", str(store), "-q")
    assert code == 0, out
    code, out = run("sql", "SELECT status, won, declarer_points, count(*) AS n FROM deals GROUP BY ALL "
                           "ORDER BY won", "--store", str(store), "-f", "json")
    assert code == 0, out
    assert [json.loads(line) for line in out.splitlines()] == [{"status": "ok", "won": False, "declarer_points": None, "n": 1},
                               {"status": "ok", "won": True, "declarer_points": None, "n": 3}]
    code, out = run("report", "--store", str(store), "-f", "csv")
    assert code == 0, out
    rates = {r["contract"]: (int(r["deals"]), int(r["wins"])) for r in csv.DictReader(io.StringIO(out))}
    assert rates == {"ena": (1, 1), "berac": (1, 1), "solo_tri": (1, 1), "dva": (1, 0)}


def _sheet_record(seq: int, david: int, ana: int) -> dict[str, object]:
    """A sheet-only Dva of session ``club`` (no id: its id is a content hash): David declares, Ana partners."""
    return {"format": "tarock-record/1", "session": "club", "seq": seq, "ruleset": "slovenian",
            "players": list(PLAYERS), "contract": "dva", "declarer": "David", "partner": "Ana", "tricks": [],
            "sheet_only": True, "recorded": {"scores": {"David": david, "Ana": ana}}}


def test_the_audit_mark_goes_on_the_disputed_figure(tmp_path: Path) -> None:
    # Nobody holds a radelc (the sheet starts the session, and no Klop or Berač is on it), so nothing doubles.
    # hand 1: David -150, Ana -140.  A Dva is 20 + the difference (rounded to 5) + bonuses: both figures are
    #   possible, so the row alone cannot tell whose is wrong: both are marked, David's too (the audit used to
    #   take the declarer's figure as the right one and mark Ana's alone).
    # hand 2: David -153, Ana -140.  No Dva gives -153 (not a multiple of 5, nor one less a Mondfang of 21, 42
    #   or 84): David's figure is the wrong one, and Ana's -140 is not disputed (it used to be marked).
    path = tmp_path / "sheet.jsonl"
    path.write_text("".join(json.dumps(_sheet_record(*r)) + "\n" for r in ((1, -150, -140), (2, -153, -140))))
    code, out = run("score", "-f", "json", str(path))
    assert code == 1
    assert [h["disputed"] for h in orjson.loads(out.splitlines()[0])["hands"]] == [["Ana", "David"], ["David"]]
    code, text = run("score", str(path))
    table, _, notes = text.partition("Legend")[0].partition("└")
    rows = [line for line in table.splitlines() if "dva (David)" in line]
    assert [line.count("(audit)") for line in rows] == [2, 1]
    assert "-140 (audit)" not in rows[1] and "-153 (audit)" in rows[1]
    # the notes under the sheet name the deals by session and hand, not by their content hash
    assert "hand 1 of session club:" in notes and "hand 2 of session club:" in notes
    assert not any(f"({h['id']})" in notes for h in orjson.loads(run("score", "-f", "json", str(path))[1])["hands"])


def test_the_written_totals_tell_whose_figure_is_the_slip(tmp_path: Path) -> None:
    # The sheet: the seed session with David's Dva figure in hand 4 written -150 where Ana wrote -140.
    # Both are Dva figures, but the sheet's total row (kept with hand 4 as ``written_totals``) says David -140:
    # his figures add up to -150, and to -140 only with Ana's figure in hand 4, while Ana's add up as written.
    # So David's -150 is the slip: his figure alone is marked, and the note says why.
    text = SHEET.read_text(encoding="utf-8").replace("Dva,David,Ana,-140,,,-140", "Dva,David,Ana,-140,,,-150")
    path = imported(tmp_path, text)
    assert orjson.loads(path.read_text().splitlines()[-1])["written_totals"] == {
        "Ana": -100, "Boris": 70, "Cilka": 190, "David": -140}
    code, out = run("score", "-f", "json", str(path))
    assert code == 1
    assert [h["disputed"] for h in orjson.loads(out.splitlines()[0])["hands"]] == [[], [], [], ["David"]]
    code, text = run("score", str(path))
    table, _, notes = text.partition("Legend")[0].partition("└")
    [row] = [line for line in table.splitlines() if "dva (David)" in line]
    assert row.count("(audit)") == 1 and "-150 ○ (audit)" in row
    assert "so David's -150 is the slip" in " ".join(notes.split())
    # a record checked on its own cannot see totals written under later hands: with hand 4 first and the totals
    # under hand 5, hand 4 keeps both marks and the finding on the slip comes with hand 5, naming hand 4
    later = text_of_records(path)
    later[-1].pop("written_totals")
    # hand 5: hand 3 again (Cilka's Solo tri +150; she holds no radelc), the totals written under it
    fifth = {**later[2], "seq": 5, "recorded": {"scores": {"Cilka": 150}},
             "written_totals": {"Ana": -100, "Boris": 70, "Cilka": 340, "David": -140}}
    reordered = tmp_path / "later.jsonl"
    reordered.write_text("".join(json.dumps(r) + "\n" for r in [*later, fifth]))
    code, out = run("score", "-f", "json", str(reordered))
    hands = orjson.loads(out.splitlines()[0])["hands"]
    assert hands[3]["disputed"] == ["Ana", "David"] and hands[4]["disputed"] == ["David"]
    assert any("in hand 4 (Dva)" in f["message"] and "so David's -150 is the slip" in f["message"]
               for f in hands[4]["findings"])


def text_of_records(path: Path) -> list[dict]:
    """The records of a JSONL file, as dicts."""
    return [orjson.loads(line) for line in path.read_text().splitlines()]
