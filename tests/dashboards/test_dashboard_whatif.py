"""The What-if page and ``analysis.whatif`` on the fixture store, checked against ``tarock score --compare``.

The figures are not counted by hand: the page must show what the command line's what-if gives for the same
deals (the fixture's input files), player by player and deal by deal.
"""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from typer.testing import CliRunner

from analysis.filters import Filters
from analysis.store import Store
from analysis.whatif import deal_under, whatif
from dashboards.replay_nav import tables_asked
from tarock.cli import app as cli
from tests.support.charts import chart_rows
from tests.support.paths import ROOT

APP = ROOT / "dashboards" / "app.py"
TABLES = ("slovenian", "openspiel")


def cli_compare(inputs: Path) -> tuple[dict[str, list[int]], dict[tuple[str, str], list[int]]]:
    """``tarock score INPUTS --compare slovenian,openspiel -f csv``: each player's totals over every session,
    and the differing deals' scores per (deal, player)."""
    out = CliRunner().invoke(cli, ["score", str(inputs), "--compare", ",".join(TABLES), "-f", "csv"])
    assert out.exit_code == 1, out.output  # 1: e_parse.jsonl's two unreadable lines, as plain `score` says (issue 35)
    totals: dict[str, list[int]] = {}
    deals: dict[tuple[str, str], list[int]] = {}
    for row in csv.DictReader(io.StringIO(out.stdout)):
        figures = [int(row[t]) for t in TABLES]
        if row["hand"] == "total":
            totals[row["player"]] = [a + b for a, b in zip(totals.get(row["player"], [0, 0]), figures)]
        elif row["hand"] != "final" and figures[0] != figures[1]:  # final: the session end charged, not a deal
            deals[(row["id"], row["player"])] = figures
    return totals, deals


def test_whatif_matches_score_compare(fixture_store: Path) -> None:
    totals, deals = cli_compare(fixture_store.parent / "in")
    result = whatif(Store(fixture_store), list(TABLES))
    assert result.deals == 10
    got = {p: [result.totals.filter(player=p, table=t)["total"].item() for t in TABLES] for p in totals}
    assert got == totals
    shown = {(r["deal_id"], r["player"]): [r[t] for t in TABLES]
             for r in result.differences.iter_rows(named=True) if r[TABLES[0]] != r[TABLES[1]]}
    assert shown == deals
    assert all(link == f"/replay?deal={d}&step=end&tables={','.join(TABLES)}"
               for d, link in result.differences.select("deal_id", "replay").rows())


def test_whatif_keeps_a_selected_deals_session_score(fixture_store: Path) -> None:
    """Deal 4 of seed-004 doubles under the radelc won in deal 3: a date filter keeping deal 4 alone must not
    lose that (the session is scored whole, only deal 4 counted)."""
    whole = whatif(Store(fixture_store), list(TABLES), session="seed-004")
    alone = whatif(Store(fixture_store), list(TABLES), Filters(date_from=date(2026, 1, 4)), session="seed-004")
    assert (alone.deals, alone.scored) == (1, 4)
    last = whole.differences.filter(deal_id="seed-session-hand-4").drop("replay")
    assert alone.differences.drop("replay").equals(last)


def test_whatif_page_shows_the_compare_figures(store: Path) -> None:
    totals, deals = cli_compare(store.parent / "in")
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({"tables": ",".join(TABLES)})
    at.switch_page("app_pages/whatif.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert at.title[0].value == "What-if"
    assert {m.label: m.value for m in at.metric} == {"Deals rescored": "10",
                                                     "Deals scoring differently": str(len({d for d, _ in deals}))}
    frames = [df.value for df in at.dataframe]
    wide = next(f for f in frames if list(f.columns) == ["player", *TABLES])
    assert {r[0]: [int(r[1]), int(r[2])] for r in wide.itertuples(index=False)} == totals
    diffs = next(f for f in frames if "lines" in f.columns)
    shown = {(r["deal_id"], r["player"]): [int(r[t]) for t in TABLES] for _, r in diffs.iterrows()
             if r[TABLES[0]] != r[TABLES[1]]}
    assert shown == deals
    assert len(at.get("vega_lite_chart")) == 2  # the totals and the win rates


def cli_deals(inputs: Path) -> dict[str, dict[str, object]]:
    """``tarock score INPUTS --compare slovenian,openspiel -f json``'s differing deals by id (their scores and
    lines per table)."""
    out = CliRunner().invoke(cli, ["score", str(inputs), "--compare", ",".join(TABLES), "-f", "json"])
    assert out.exit_code == 1, out.output  # the two unreadable lines of the fixture's e_parse.jsonl
    return {d["id"]: d for line in out.stdout.splitlines() for d in json.loads(line)["differences"]}


def test_deal_under_matches_score_compare(fixture_store: Path) -> None:
    """Every deal ``score --compare`` finds differing: the same scores and the same differing lines, each deal
    rescored within its session (seed-session-hand-4 doubles under the radelc of hand 3)."""
    expected = cli_deals(fixture_store.parent / "in")
    assert "seed-session-hand-4" in expected
    for deal_id, want in expected.items():
        under = deal_under(Store(fixture_store), deal_id, list(TABLES))
        assert under is not None and under.tables == TABLES
        for t in TABLES:
            assert dict(under.scores.select("player", t).rows()) == want["scores"][t], (deal_id, t)  # type: ignore[index]
            marked = under.lines.filter(table=t, differs=True)["text"].to_list()
            assert marked == want["lines"][t], (deal_id, t)  # type: ignore[index]
    assert deal_under(Store(fixture_store), "no-such-deal", list(TABLES)) is None
    with pytest.raises(ValueError):
        deal_under(Store(fixture_store), "seed-session-hand-4", ["koenigrufen"])


def test_replay_tables_in_the_address_keep_the_deals_rulesets_tables_only() -> None:
    assert tables_asked(None, "slovenian") == ((), None)
    assert tables_asked("slovenian,palcka", "slovenian") == (("slovenian", "palcka"), None)
    kept, notice = tables_asked("slovenian,/etc/passwd,house.toml,koenigrufen,slovenian", "slovenian")
    assert kept == ("slovenian",)
    assert notice and "'/etc/passwd'" in notice and "'house.toml'" in notice and "'koenigrufen'" in notice
    kept, notice = tables_asked("nonsense", "slovenian")
    assert kept == () and notice and "shown as stored" in notice
    assert tables_asked(",,", "slovenian")[0] == ()


def replay_at_end(deal: str, tables: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({"deal": deal, "step": "end", "tables": tables})
    at.switch_page("app_pages/replay.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def test_replay_score_step_under_two_tables_shows_the_compare_figures(store: Path) -> None:
    """The What-if's link: the replay's score step sets the deal under both tables side by side, the stored score
    first, with the figures and the differing lines of ``score --compare``."""
    want = cli_deals(store.parent / "in")["seed-session-hand-4"]
    at = replay_at_end("seed-session-hand-4", ",".join(TABLES))
    assert not at.warning
    frames = [df.value for df in at.dataframe]
    stored = next(f for f in frames if "recorded_score" in f.columns)
    side = next(f for f in frames if list(f.columns) == ["player", "stored", *TABLES])
    assert {r.player: int(r.stored) for r in side.itertuples()} == {r.player: int(r.score) for r in stored.itertuples()}
    for t in TABLES:
        assert {r["player"]: int(r[t]) for _, r in side.iterrows()} == want["scores"][t]  # type: ignore[index]
    breakdowns = [f for f in frames if "differs" in f.columns]
    assert len(breakdowns) == len(TABLES)
    for t, frame in zip(TABLES, breakdowns):
        marked = [f"{r.players} {r.component} {int(r.value):+d}: {r.detail}" for r in frame.itertuples()
                  if r.differs == "≠"]
        assert marked == want["lines"][t]  # type: ignore[index]
        assert len(frame) > len(marked)  # the lines both tables write are listed too, unmarked


def test_replay_junk_tables_fall_back_with_a_notice(store: Path) -> None:
    at = replay_at_end("seed-session-hand-4", "koenigrufen,../../etc/passwd")
    assert any("not a slovenian rules table" in w.value for w in at.warning)
    assert not [df for df in at.dataframe if "differs" in df.value.columns]
    assert any("recorded_score" in df.value.columns for df in at.dataframe)  # the stored score as ever


def test_replay_drops_the_tables_at_a_click(store: Path) -> None:
    at = replay_at_end("seed-session-hand-4", ",".join(TABLES))
    at.button(key="drop_tables").click().run()
    assert not at.exception, [e.message for e in at.exception]
    assert "tables" not in at.query_params
    assert not [df for df in at.dataframe if "differs" in df.value.columns]


def test_whatif_draws_a_win_rate_chart_per_number_of_players(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """3- and 4-player deals are different games: the page draws one win-rate chart for each, headed by its table
    size, each with only that size's contracts (Solo tri is 4 players only), and its table has a Players column."""
    from ingest.commands import ingest
    from tests.support.ingest_util import session_records, write_jsonl

    records = write_jsonl(tmp_path / "in" / "mixed.jsonl", session_records(60, seed=5, session_size=(3, 9)))
    assert ingest([records], tmp_path / "store", "local:1", quiet=True).exit_code == 0
    monkeypatch.setenv("TAROCK_STORE", str(tmp_path / "store"))
    at = AppTest.from_file(str(APP), default_timeout=120)
    at.query_params.update({"tables": ",".join(TABLES), "wruleset": "slovenian"})
    at.switch_page("app_pages/whatif.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    assert [m.value for m in at.markdown if m.value.startswith("**Slovenian")] == [
        "**Slovenian, 3 players**", "**Slovenian, 4 players**"]
    charts = at.get("vega_lite_chart")
    assert len(charts) == 3  # the totals, then a win-rate chart per table size
    rates = next(df.value for df in at.dataframe if "win_rate" in df.value.columns)
    assert set(rates["n_players"]) == {3, 4}
    assert "solo_tri" not in {c.lower().replace(" ", "_") for c in rates[rates["n_players"] == 3]["Contract"]}
    # each row's label counts its deals once: both tables rescore the same deals (the label used to add them up)
    for players, chart in zip((3, 4), charts[1:]):
        shown = {r["Contract"]: r for r in chart_rows(chart) if "row_label" in r}
        assert shown and set(shown) == set(rates[rates["n_players"] == players]["Contract"])
        for contract, row in shown.items():
            deals = rates[(rates["n_players"] == players) & (rates["Contract"] == contract)]["deals"]
            assert set(deals) == {row["deals"]}  # every table: the same deals
            assert row["row_label"] == f"{contract} · {row['deals']:,} deal{'' if row['deals'] == 1 else 's'}"
