"""Score sheets as spreadsheets save them: UTF-16 with a byte-order mark, a Windows code page, and figures
too large for a sheet (issue 24: each crashed ``tarock import sheet`` with a traceback)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tarock.cli import app
from tarock.formats.sheet_csv import MAX_FIGURE, decode_sheet, read_sheet

SHEET = ("session,hand,contract,declarer,partner,Ana,Boris,Cilka,Čarli\n"
         "club-7,1,tri,Ana,Boris,+20,+20,,\n")
"""A one-hand sheet whose last player's name needs more than ASCII (Č: cp1250 has it, Latin-1 has not)."""

runner = CliRunner()


def test_utf16_with_a_byte_order_mark_is_read_and_said(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_bytes(SHEET.encode("utf-16"))  # Python writes the byte-order mark, as Excel does
    notices: list[str] = []
    rows, problems = read_sheet(path, notices)
    assert problems == [] and len(rows) == 1 and "Čarli" in rows[0].players
    assert notices and "UTF-16" in notices[0]


def test_a_windows_code_page_is_guessed_and_named() -> None:
    data = (SHEET * 1).encode("cp1250")
    text, notice = decode_sheet(data)
    assert "Čarli" in text
    assert notice is not None and "not UTF-8" in notice


def test_plain_utf8_needs_no_notice() -> None:
    assert decode_sheet(SHEET.encode("utf-8")) == (SHEET, None)
    assert decode_sheet(b"\xef\xbb\xbf" + SHEET.encode("utf-8")) == (SHEET, None)


def test_a_26_digit_figure_is_an_error_naming_its_row_and_column(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_text("session,hand,contract,declarer,partner,Ana,Boris,Cilka,David\n"
                    f"club-7,1,tri,Ana,Boris,+{'9' * 26},+20,,\n"
                    f"club-7,2,tri,Ana,Boris,+{MAX_FIGURE},+20,,\n", encoding="utf-8")
    rows, problems = read_sheet(path)
    assert [r.hand for r in rows] == [2]  # the in-range row is read
    assert len(problems) == 1 and problems[0].line == 2
    assert "Ana" in problems[0].message and "out of range" in problems[0].message


def test_import_sheet_says_how_it_read_the_file(tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_bytes(SHEET.encode("utf-16"))
    result = runner.invoke(app, ["import", "sheet", str(path), "-o", str(tmp_path / "out.jsonl")])
    assert "Traceback" not in result.output
    assert "notice:" in result.output and "UTF-16" in result.output
    assert "wrote 1 record" in result.output
