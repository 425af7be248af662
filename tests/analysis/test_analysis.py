"""The analysis questions on the hand-built store of ``tests/support/analysis_store.py``.

Every expected figure is counted by hand from that module's table of deals
(the comments say how).  Each question runs on the Parquet store directory
and on a DuckDB file exported from it (``ingest.store.export_duckdb``); the
answers must be identical.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from analysis import audit, bonuses, deals, king_calls, outcomes, overview, players, sessions, win_rates
from analysis.filters import Filters
from analysis.store import Store
from ingest.store import export_duckdb
from tests.support.analysis_store import build_store

Z = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval by the textbook formula, independently of ``analysis.stats``."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


@pytest.fixture(scope="module")
def store_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_store(tmp_path_factory.mktemp("analysis") / "store")


@pytest.fixture(scope="module")
def duckdb_file(store_dir: Path) -> Path:
    file = store_dir.parent / "store.duckdb"
    export_duckdb(store_dir, file)
    return file


@pytest.fixture(scope="module", params=["parquet", "duckdb"])
def store(request: pytest.FixtureRequest, store_dir: Path, duckdb_file: Path) -> Iterator[Store]:
    """The store as a Parquet directory, and as an exported DuckDB file: every test runs on both."""
    with Store(store_dir if request.param == "parquet" else duckdb_file) as handle:
        yield handle


def rows(frame: pl.DataFrame, *columns: str) -> list[tuple]:
    return list(frame.select(columns).iter_rows())


# --- win rates -------------------------------------------------------------------------------------


def test_win_rates_by_contract_in_ladder_order(store: Store) -> None:
    # declared deals (no klop s1-3, no error s2-3): tri s1-1 W, s1-6 L, s2-1 W; dva s1-2 L, x-1 W;
    # ena s1-5 W; berac s1-4 W; solo_brez s2-2 L; rufer (koenigrufen, after every slovenian one) k1-1 W
    frame = win_rates.win_rates(store)
    assert rows(frame, "contract", "deals", "wins") == [
        ("tri", 3, 2), ("dva", 2, 1), ("ena", 1, 1), ("berac", 1, 1), ("solo_brez", 1, 0), ("rufer", 1, 1)]
    for contract, deals_, wins, rate, low, high in frame.select(
            "contract", "deals", "wins", "win_rate", "ci_low", "ci_high").iter_rows():
        want_low, want_high = wilson(wins, deals_)
        assert rate == pytest.approx(wins / deals_)
        assert (low, high) == (pytest.approx(want_low, abs=1e-12), pytest.approx(want_high, abs=1e-12)), contract


def test_wilson_interval_is_exact_at_zero_and_n(store: Store) -> None:
    frame = win_rates.win_rates(store)
    solo_brez = frame.row(by_predicate=pl.col("contract") == "solo_brez", named=True)  # 0 of 1
    berac = frame.row(by_predicate=pl.col("contract") == "berac", named=True)  # 1 of 1
    assert solo_brez["ci_low"] == 0.0 and solo_brez["ci_high"] == pytest.approx(wilson(0, 1)[1])
    assert berac["ci_high"] == 1.0 and berac["ci_low"] == pytest.approx(wilson(1, 1)[0])


def test_win_rates_by_seat_declarer_ruleset_month(store: Store) -> None:
    # seats: forehand s1-1 W, s1-6 L, s2-1 W; second s1-4 W, s1-5 W, x-1 W; third s1-2 L;
    # dealer s2-2 L (3 players: Ana is last), k1-1 W
    assert rows(win_rates.win_rates(store, by="seat"), "seat", "deals", "wins") == [
        ("forehand", 3, 2), ("second", 3, 3), ("third", 1, 0), ("dealer", 2, 1)]
    # Ana s1-1 W, s1-4 W, s2-1 W, s2-2 L; Bor s1-5 W, s1-6 L; Dana s1-2 L, k1-1 W; Hana x-1 W
    assert rows(win_rates.win_rates(store, by="declarer"), "declarer", "deals", "wins") == [
        ("Ana", 4, 3), ("Bor", 2, 1), ("Dana", 2, 1), ("Hana", 1, 1)]
    assert rows(win_rates.win_rates(store, by="ruleset"), "ruleset", "n_players", "deals", "wins") == [
        ("koenigrufen", 4, 1, 1), ("slovenian", 3, 2, 1), ("slovenian", 4, 6, 4)]
    assert rows(win_rates.win_rates(store, by="month"), "month", "deals", "wins") == [
        ("2024-03", 6, 4), ("2024-04", 2, 1), ("2024-05", 1, 1)]


def test_win_rates_two_groupings(store: Store) -> None:
    frame = win_rates.win_rates(store, by=("contract", "seat"))
    assert rows(frame, "contract", "seat", "deals", "wins")[:3] == [
        ("tri", "forehand", 3, 2), ("dva", "second", 1, 1), ("dva", "third", 1, 0)]
    assert frame["deals"].sum() == 9


def test_win_rates_filters(store: Store) -> None:
    assert rows(win_rates.win_rates(store, Filters(players=3)), "contract", "deals", "wins") == [
        ("tri", 1, 1), ("solo_brez", 1, 0)]
    # Gal sat only in x-1
    assert rows(win_rates.win_rates(store, Filters(player="Gal")), "contract", "deals", "wins") == [("dva", 1, 1)]
    # from 2024-03-15: x-1, s2-1, s2-2, k1-1; up to 2024-04-30 drops k1-1
    spring = Filters(date_from=dt.date(2024, 3, 15), date_to=dt.date(2024, 4, 30))
    assert rows(win_rates.win_rates(store, spring, by="month"), "month", "deals") == [("2024-03", 1), ("2024-04", 2)]
    assert rows(win_rates.win_rates(store, Filters(contract="tri"), by="declarer"), "declarer", "deals") == [
        ("Ana", 2), ("Bor", 1)]
    assert win_rates.win_rates(store, Filters(ruleset="koenigrufen"))["contract"].to_list() == ["rufer"]


def test_win_rates_rejects_unknown_grouping(store: Store) -> None:
    for by in ("contract; DROP TABLE deals", "", ("seat", "seat"), ()):
        with pytest.raises(ValueError):
            win_rates.win_rates(store, by=by)


def test_undeclared_contracts_are_counted_apart(store: Store) -> None:
    assert rows(win_rates.undeclared(store), "contract", "deals") == [("klop", 1)]
    assert win_rates.undeclared(store, Filters(players=3)).is_empty()


# --- outcomes -------------------------------------------------------------------------------------


def test_outcomes(store: Store) -> None:
    frame = outcomes.outcomes(store)
    got = {r["contract"]: r for r in frame.iter_rows(named=True)}
    # tri: Ana -5 (s1-1), Bor -110 (s1-6), Ana +30 (s2-1); points 40, 31, 45: close (31..40) 40 and 31
    assert got["tri"]["avg_score"] == pytest.approx(-85 / 3)
    assert got["tri"]["avg_card_points"] == pytest.approx(116 / 3)
    assert (got["tri"]["close"], got["tri"]["close_share"]) == (2, pytest.approx(2 / 3))
    # dva: Dana -20 at 33 points (close), Hana +225 at 52
    assert (got["dva"]["avg_score"], got["dva"]["close"]) == (102.5, 1)
    # solo brez is decided by card points too: 30 is not close
    assert (got["solo_brez"]["close"], got["solo_brez"]["close_share"]) == (0, 0.0)
    # berac is won by taking no trick: closeness does not apply
    assert got["berac"]["close"] is None and got["berac"]["avg_score"] == 140
    assert got["rufer"]["avg_card_points"] is None


def test_outcomes_filters(store: Store) -> None:
    assert rows(outcomes.outcomes(store, Filters(player="Hana")), "contract", "avg_score") == [("dva", 225.0)]
    assert rows(outcomes.outcomes(store, Filters(players=3, contract="tri")), "contract", "deals", "close") == [
        ("tri", 1, 0)]


# --- bonuses and kontras --------------------------------------------------------------------------


def test_bonuses(store: Store) -> None:
    frame = bonuses.bonuses(store).filter(pl.col("ruleset") == "slovenian")
    columns = ("bonus", "deals", "silent_made", "silent_failed", "announced", "announced_made", "announced_failed")
    assert rows(frame, *columns) == [
        ("trula", 8, 1, 0, 1, 1, 0),  # silent +10 in s2-1; announced by Bor in s1-5 and made (+20)
        ("kings", 8, 1, 0, 0, 0, 0),  # x-1: made silently by the opponents (-10 on the declarer's line)
        ("pagat_ultimo", 8, 0, 1, 1, 1, 0),  # s1-6: Ana (declarer's side) owns T1, line -25: failed;
        #                                      x-1: announced by Hana, +200: made
        ("king_ultimo", 8, 0, 0, 1, 0, 1),  # s1-1: announced by Ana, line -20: failed
        ("valat", 8, 0, 0, 0, 0, 0),
        ("mondfang", 8, 1, 0, 1, 0, 1),  # s1-1: Dana's Mond captured, silent; x-1: Gal's announcement, no capture
    ]
    koenigrufen = bonuses.bonuses(store).filter(pl.col("ruleset") == "koenigrufen")
    assert koenigrufen["deals"].unique().to_list() == [1] and koenigrufen["announced"].sum() == 0
    assert frame["made_rate"].to_list()[:3] == [1.0, None, 1.0]


def test_bonuses_filters(store: Store) -> None:
    # only x-1 (Gal's deal): kings silent, pagat announced and made, Mondfang announced and failed
    frame = bonuses.bonuses(store, Filters(player="Gal"))
    assert rows(frame, "bonus", "deals", "silent_made", "announced_made", "announced_failed") == [
        ("trula", 1, 0, 0, 0), ("kings", 1, 1, 0, 0), ("pagat_ultimo", 1, 0, 1, 0), ("king_ultimo", 1, 0, 0, 0),
        ("valat", 1, 0, 0, 0), ("mondfang", 1, 0, 0, 1)]
    assert bonuses.bonuses(store, Filters(players=3))["silent_made"].to_list() == [1, 0, 0, 0, 0, 0]


def test_kontras(store: Store) -> None:
    frame = bonuses.kontras(store).filter(pl.col("ruleset") == "slovenian")
    assert rows(frame, "target", "opportunities", "kontra", "re", "sub", "mord", "kontra_won") == [
        ("game", 8, 1, 0, 0, 0, 1),  # s1-6: Cene's kontra, and the declarer's side lost
        ("pagat_ultimo", 1, 1, 1, 0, 0, 0),  # x-1: Gal's kontra, Hana's re, and the Pagat ultimo was made
        ("king_ultimo", 1, 0, 0, 0, 0, 0),
        ("valat", 0, 0, 0, 0, 0, 0),
        ("mondfang", 1, 0, 0, 0, 0, 0),
    ]
    assert frame["won_rate"].to_list()[:2] == [1.0, 0.0]
    assert bonuses.kontras(store, Filters(date_from=dt.date(2024, 3, 2)))["kontra"].to_list()[:2] == [0, 1]


# --- king calls -----------------------------------------------------------------------------------


def test_king_calls(store: Store) -> None:
    # tri: s1-1, s1-6 with partners; dva: x-1 with a partner, s1-2 own king (SK is not in its talon);
    # ena: s1-5, DK listed in the talon; rufer: k1-1 has no talon in its record and nobody played CK
    assert rows(king_calls.king_calls(store), "contract", "deals", "with_partner", "own_king", "king_in_talon") == [
        ("tri", 2, 2, 0, 0), ("dva", 2, 1, 1, 0), ("ena", 1, 0, 0, 1), ("rufer", 1, 0, 0, 1)]
    assert rows(king_calls.king_calls(store, Filters(ruleset="slovenian", contract="dva")),
                "contract", "own_king_share") == [("dva", 0.5)]


def test_partner_reveals(store: Store) -> None:
    # Cene played HK in trick 2 (s1-1), Jan HK in trick 5 (x-1), Ana CK in trick 7 (s1-6); other kings
    # played (Bor's SK in s1-1, Ana's HK in s1-6) are not the called ones
    frame = king_calls.partner_reveals(store)
    assert rows(frame, "trick", "revealed", "cumulative", "with_partner") == [(2, 1, 1, 3), (5, 1, 2, 3), (7, 1, 3, 3)]
    assert frame["revealed_share"].to_list() == pytest.approx([1 / 3, 2 / 3, 1.0])
    assert rows(king_calls.partner_reveals(store, Filters(player="Jan")), "trick", "cumulative") == [(5, 1)]


# --- players --------------------------------------------------------------------------------------


def test_players(store: Store) -> None:
    frame = players.players(store)
    got = {r["player"]: r for r in frame.iter_rows(named=True)}
    assert sorted(got) == ["Ana", "Bor", "Cene", "Dana", "Eva", "Fran", "Gal", "Hana", "Ivo", "Jan"]
    ana = got["Ana"]
    # Ana sat in all of s1 (6), s2 (3) and k1-1: 10 deals; declared with a result s1-1, s1-4, s2-1, s2-2
    # (s2-3 is in error); won 3; scores -5 0 0 140 0 -110 30 -80 (s2-3 none) -1 = -26 over 9
    assert (ana["deals"], ana["declared"], ana["won"], ana["total_score"]) == (10, 4, 3, -26)
    assert ana["score_per_deal"] == pytest.approx(-26 / 9) and ana["win_rate"] == 0.75
    # radelci held after each session's last deal: s1 1 (klop +1, berac won -1 +1), s2 1 (solo brez), k1 0
    assert ana["radelci"] == 2
    assert [got[p]["radelci"] for p in ("Bor", "Cene", "Dana", "Eva", "Gal")] == [1, 2, 2, 1, 0]
    # renons: Bor's stash (s1-5) in 7 deals, Cene's (s1-5) in 7, Gal's (x-1) in 1
    assert [got[p]["renons"] for p in ("Bor", "Cene", "Gal", "Ana")] == [1, 1, 1, 0]
    assert got["Gal"]["renons_rate"] == 1.0 and got["Cene"]["renons_rate"] == pytest.approx(1 / 7)


def test_players_filters(store: Store) -> None:
    assert rows(players.players(store, Filters(player="Ana")), "player", "deals", "won") == [("Ana", 10, 3)]
    # three players: s2 only; Ana declared s2-1 (won, +30) and s2-2 (lost, -80)
    three = players.players(store, Filters(players=3))
    assert rows(three, "player", "deals", "declared", "won", "total_score", "radelci") == [
        ("Ana", 3, 2, 1, -50, 1), ("Eva", 3, 0, 0, 0, 1), ("Fran", 3, 0, 0, 0, 1)]
    # contract berac: only s1-4, where Ana cancels one radelc and everyone gets one
    berac = players.players(store, Filters(contract="berac"))
    assert rows(berac, "player", "radelci") == [("Ana", 0), ("Bor", 1), ("Cene", 1), ("Dana", 1)]


def test_player_names(store: Store) -> None:
    assert players.player_names(store)["player"].to_list() == [
        "Ana", "Bor", "Cene", "Dana", "Eva", "Fran", "Gal", "Hana", "Ivo", "Jan"]
    assert players.player_names(store, Filters(players=3))["player"].to_list() == ["Ana", "Eva", "Fran"]


def test_player_renons(store: Store) -> None:
    assert rows(players.player_renons(store), "player", "code", "renons", "deals") == [
        ("Bor", "R_STASH", 1, 7), ("Cene", "R_FOLLOW_SUIT", 1, 7), ("Gal", "R_MUST_TAROK", 1, 1)]
    assert rows(players.player_renons(store, Filters(player="Cene")), "player", "rate") == [("Cene", 1 / 7)]
    assert players.player_renons(store, Filters(players=3)).is_empty()


# --- audit ----------------------------------------------------------------------------------------


def test_disputes(store: Store) -> None:
    frame = audit.disputes(store)
    assert rows(frame, "deal_id", "player", "recorded_score", "score", "score_diff", "radelci_after") == [
        ("s1-4", "Cene", 0, 0, 0, 2),  # only the radelci differ
        ("s1-6", "Bor", -55, -110, 55, 1)]
    assert frame["message"][1].startswith("recorded -55 for Bor, recomputed -110")
    assert audit.disputes(store, Filters(player="Gal")).is_empty()
    assert audit.disputes(store, Filters(contract="tri"))["deal_id"].to_list() == ["s1-6"]


def test_renons_by_code_player_trick(store: Store) -> None:
    assert rows(audit.renons(store), "code", "renons", "deals") == [
        ("R_FOLLOW_SUIT", 1, 1), ("R_MUST_TAROK", 1, 1), ("R_STASH", 1, 1)]
    assert rows(audit.renons(store, by="player"), "player", "renons") == [("Bor", 1), ("Cene", 1), ("Gal", 1)]
    assert rows(audit.renons(store, by="trick"), "trick", "renons") == [(None, 1), (2, 1), (3, 1)]
    assert rows(audit.renons(store, Filters(date_from=dt.date(2024, 3, 2))), "code") == [("R_MUST_TAROK",)]
    with pytest.raises(ValueError):
        audit.renons(store, by="message")


def test_findings_list(store: Store) -> None:
    # newest deals first: x-1 (2024-03-20) before the s1 deals (2024-03-01); within a deal in finding order
    assert rows(audit.findings(store), "deal_id", "code", "trick", "player") == [
        ("x-1", "R_MUST_TAROK", 2, "Gal"), ("s1-5", "R_STASH", None, "Bor"), ("s1-5", "R_FOLLOW_SUIT", 3, "Cene")]
    assert rows(audit.findings(store, severity="error"), "deal_id", "code") == [("s2-3", "E_NOT_IN_HAND")]
    assert rows(audit.findings(store, Filters(player="Cene"), code="R_FOLLOW_SUIT", limit=5), "deal_id") == [
        ("s1-5",)]
    assert audit.findings(store, limit=1).height == 1


def test_rejects(store: Store) -> None:
    assert rows(audit.rejects(store), "reason", "rejects", "files", "first") == [
        ("not valid JSON", 2, 1, "bad.jsonl:3"), ("the file holds no JSON record", 1, 1, "empty.json:1")]


# --- sessions -------------------------------------------------------------------------------------


def test_sessions(store: Store) -> None:
    frame = sessions.sessions(store)
    assert rows(frame, "session", "deals", "renons_deals", "disputed_deals", "error_deals") == [
        ("s1", 6, 1, 2, 0), ("s2", 3, 0, 0, 1), ("k1", 1, 0, 0, 0)]
    assert frame["players"][1].to_list() == ["Ana", "Eva", "Fran"]
    assert sessions.sessions(store, Filters(ruleset="koenigrufen"))["session"].to_list() == ["k1"]


def test_running_totals(store: Store) -> None:
    frame = sessions.running_totals(store, session="s1")
    by_player = {p: frame.filter(pl.col("player") == p) for p in ("Ana", "Bor", "Cene", "Dana")}
    assert by_player["Ana"]["total"].to_list() == [-5, -5, -5, 135, 135, 25]
    assert by_player["Bor"]["total"].to_list() == [0, 0, 70, 70, 180, 70]
    assert by_player["Cene"]["total"].to_list() == [-5, -5, -5, -5, -65, -65]
    assert by_player["Dana"]["total"].to_list() == [-21, -41, -41, -41, -41, -41]
    assert by_player["Ana"]["radelci_after"].to_list() == [0, 0, 1, 1, 1, 1]
    assert frame["seq"].to_list()[:5] == [1, 1, 1, 1, 2] and frame["player"].to_list()[:4] == [
        "Ana", "Bor", "Cene", "Dana"]
    # s2-3 is in error: no score, the total stays
    s2 = sessions.running_totals(store, session="s2").filter(pl.col("player") == "Ana")
    assert rows(s2, "score", "total") == [(30, 30), (-80, -50), (None, -50)]
    assert sessions.running_totals(store, Filters(players=3))["session"].unique().to_list() == ["s2"]


# --- overview and deal lookup ---------------------------------------------------------------------


def test_overview(store: Store) -> None:
    row = overview.overview(store).row(0, named=True)
    assert {k: row[k] for k in ("deals", "ok_deals", "renons_deals", "error_deals", "sessions", "players",
                                "disputed_deals")} == {
        "deals": 11, "ok_deals": 8, "renons_deals": 2, "error_deals": 1, "sessions": 3, "players": 10,
        "disputed_deals": 2}
    assert (row["date_from"], row["date_to"], row["renons_rate"]) == (
        dt.date(2024, 3, 1), dt.date(2024, 5, 1), pytest.approx(2 / 11))
    assert overview.overview(store, Filters(player="Eva")).row(0, named=True)["players"] == 3


def test_span(store: Store) -> None:
    # the eleven deals (module docstring of tests/support/analysis_store.py) run from s1's 2024-03-01 to
    # k1-1's 2024-05-01; the three-player ones are s2's three deals, all on 2024-04-15; Gal sat only at x-1.
    # Rulesets: k1-1 is the one Königrufen deal, the rest Slovenian -- two in all, one at three players or Gal's
    assert overview.span(store).row(0) == (11, dt.date(2024, 3, 1), dt.date(2024, 5, 1), 2)
    assert overview.span(store, Filters(players=3)).row(0) == (3, dt.date(2024, 4, 15), dt.date(2024, 4, 15), 1)
    assert overview.span(store, Filters(player="Gal")).row(0) == (1, dt.date(2024, 3, 20), dt.date(2024, 3, 20), 1)


def test_find_deals(store: Store) -> None:
    assert deals.find_deals(store, id_prefix="s1-")["deal_id"].to_list() == [f"s1-{i}" for i in range(1, 7)]
    assert deals.find_deals(store, session="s2")["deal_id"].to_list() == ["s2-1", "s2-2", "s2-3"]
    newest = deals.find_deals(store, Filters(player="Ana"), limit=2)
    assert newest["deal_id"].to_list() == ["k1-1", "s2-1"]  # newest first: 2024-05-01, then s2 in seq order
    assert newest.columns == ["deal_id", "date", "session", "seq", "contract", "declarer", "status", "n_findings"]
    assert deals.find_deals(store, id_prefix="%").is_empty()  # a prefix, not a LIKE pattern


def test_deal_detail(store: Store) -> None:
    detail = deals.deal_detail(store, "s1-5")
    assert detail is not None
    assert detail.deal["contract"] == "ena" and "record" not in detail.deal
    assert detail.record["talon"][0] == "DK"
    assert detail.findings["code"].to_list() == ["R_STASH", "R_FOLLOW_SUIT"]
    assert detail.results["player"].to_list() == ["Ana", "Bor", "Cene", "Dana"]
    first = deals.deal_detail(store, "s1-1")
    assert first is not None and first.tricks["winner"].to_list() == ["Bor", "Cene"]
    assert deals.deal_detail(store, "no-such-deal") is None


# --- every question, both store kinds, and hostile filter values ----------------------------------

QUESTIONS: dict[str, Callable[[Store, Filters], pl.DataFrame]] = {
    "win_rates": win_rates.win_rates,
    "win_rates_seat": lambda s, f: win_rates.win_rates(s, f, by=("seat", "month")),
    "undeclared": win_rates.undeclared,
    "outcomes": outcomes.outcomes,
    "bonuses": bonuses.bonuses,
    "kontras": bonuses.kontras,
    "king_calls": king_calls.king_calls,
    "partner_reveals": king_calls.partner_reveals,
    "players": players.players,
    "player_renons": players.player_renons,
    "player_names": players.player_names,
    "findings": audit.findings,
    "disputes": audit.disputes,
    "renons": audit.renons,
    "sessions": sessions.sessions,
    "running_totals": sessions.running_totals,
    "overview": overview.overview,
    "find_deals": deals.find_deals,
}

HOSTILE = "x' OR 1=1 --"


@pytest.mark.parametrize("name", QUESTIONS)
def test_parquet_and_duckdb_file_agree(name: str, store_dir: Path, duckdb_file: Path) -> None:
    ask = QUESTIONS[name]
    for filters in (Filters(), Filters(players=4, date_from=dt.date(2024, 3, 1)), Filters(player="Ana")):
        with Store(store_dir) as parquet, Store(duckdb_file) as file:
            assert ask(parquet, filters).equals(ask(file, filters)), (name, filters)


@pytest.mark.parametrize("name", QUESTIONS)
@pytest.mark.parametrize("field", ["player", "contract", "ruleset"])
def test_filter_values_are_never_sql(name: str, field: str, store: Store) -> None:
    """A filter value that would widen a formatted WHERE clause matches nothing instead."""
    frame = QUESTIONS[name](store, Filters(**{field: HOSTILE}))  # type: ignore[arg-type]
    counts = [c for c in ("deals", "renons", "kontra", "announced", "revealed") if c in frame.columns]
    assert frame.is_empty() or all(frame[c].sum() == 0 for c in counts), frame


def test_search_terms_are_never_sql(store: Store) -> None:
    assert deals.find_deals(store, id_prefix=HOSTILE).is_empty()
    assert deals.find_deals(store, session=HOSTILE).is_empty()
    assert deals.deal_detail(store, HOSTILE) is None
    assert sessions.running_totals(store, session=HOSTILE).is_empty()


def test_filters_validate() -> None:
    with pytest.raises(ValueError):
        Filters(players=5)
    with pytest.raises(TypeError):
        Filters(date_from="2024-01-01")  # type: ignore[arg-type]


def test_a_missing_store_reads_as_empty(tmp_path: Path) -> None:
    with Store(tmp_path / "no-store-yet") as empty:
        assert win_rates.win_rates(empty).is_empty()
        assert overview.overview(empty)["deals"].to_list() == [0]


def test_refresh_reopens_the_store(store_dir: Path) -> None:
    with Store(store_dir) as handle:
        cursor = handle.connect()
        handle.refresh()
        with pytest.raises(duckdb.ConnectionException):  # cursors of the closed database stop working
            cursor.sql("SELECT 1").fetchall()
        assert handle.query("SELECT count(*) AS n FROM deals")["n"].to_list() == [11]
