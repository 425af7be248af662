"""The Players page's questions on the hand-built store of ``tests/support/analysis_store.py``.

Ratings are rebuilt into a copy of that store (Parquet) and read back, also
from an exported DuckDB file.  The accuracy and luck questions run on an
exported DuckDB file to whose ``card_analysis`` table (the solver's; empty in the
export) hand-set point losses and to whose ``ratings`` hand-set rows are added by
SQL, as a store with the solver's analysis would have them.  Expected figures are counted by hand
from the fixture's table of deals (the comments say how).
"""

from __future__ import annotations

import datetime as dt
import io
import math
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq
import pytest

from analysis import accuracy, calendar, luck, partnerships, ratings
from analysis.filters import Filters
from analysis.report import calendar_report, report
from analysis.store import Store
from ingest.store import export_duckdb
from tests.support.analysis_store import build_store
from tests.support.partner_pairs import club_pairs, petra_pairs

Z = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


@pytest.fixture(scope="module")
def rated_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = build_store(tmp_path_factory.mktemp("players") / "store")
    ratings.rebuild(store)
    return store


@pytest.fixture(scope="module")
def rated(rated_dir: Path) -> Store:
    return Store(rated_dir)


# --- ratings --------------------------------------------------------------------------------------------

def test_rebuild_rates_every_deal_with_a_result_in_order(rated: Store) -> None:
    # rated: the six s1 deals and x-1 (slovenian 4), s2-1 and s2-2 (slovenian 3; s2-3 is in error), k1-1
    # (koenigrufen 4): 7 * 4 + 2 * 3 + 4 = 38 rows
    rows = rated.query("SELECT * FROM ratings ORDER BY ruleset, n_players, deal_index, player")
    assert rows.height == 38
    pools = rows.group_by("ruleset", "n_players").agg(pl.col("deal_index").max()).sort("ruleset", "n_players")
    assert pools.rows() == [("koenigrufen", 4, 0), ("slovenian", 3, 1), ("slovenian", 4, 6)]
    # slovenian 4 in date order: the s1 deals of 2024-03-01 by seq (0..5), then x-1 of 2024-03-20 (6)
    order = rows.filter(pl.col("n_players") == 4, pl.col("ruleset") == "slovenian").unique("deal_index")
    assert dict(order.select("deal_index", "deal_id").iter_rows()) == {
        0: "s1-1", 1: "s1-2", 2: "s1-3", 3: "s1-4", 4: "s1-5", 5: "s1-6", 6: "x-1"}
    # the records list no hands: no tarok or king counts
    assert rows["taroks"].null_count() == rows.height


def test_current_rating_and_history(rated: Store) -> None:
    now = ratings.current(rated, Filters(ruleset="slovenian", players=4))
    ana = now.filter(pl.col("player") == "Ana").row(0, named=True)
    assert ana["games"] == 6  # Ana sat in all six s1 deals and not in x-1
    assert ana["ordinal"] == pytest.approx(ana["mu"] - 3 * ana["sigma"])
    # Gal, Hana, Ivo, Jan played one deal only: Hana and Jan won it, so they rank above Gal and Ivo
    one = now.filter(pl.col("games") == 1).sort("player")
    assert one["player"].to_list() == ["Gal", "Hana", "Ivo", "Jan"]
    hana, gal = (one.filter(pl.col("player") == p)["mu"][0] for p in ("Hana", "Gal"))
    assert hana > 25 > gal
    history = ratings.history(rated, ["Ana", "Bor"], Filters(ruleset="slovenian", players=4))
    assert history.filter(pl.col("player") == "Ana")["games"].to_list() == [1, 2, 3, 4, 5, 6]
    # a date range ending before x-1 leaves Hana unrated
    early = ratings.current(rated, Filters(date_to=dt.date(2024, 3, 10)))
    assert "Hana" not in early["player"].to_list()


def test_rebuild_is_idempotent_and_exported(rated_dir: Path, tmp_path: Path) -> None:
    first = pq.read_table(next(rated_dir.glob("gen-*/ratings/ratings.parquet")))
    again = ratings.rebuild(rated_dir)
    assert again.deals == 10 and again.rows == 38
    assert pq.read_table(again.path).equals(first)
    file = tmp_path / "store.duckdb"
    counts = export_duckdb(rated_dir, file)
    assert counts["ratings"] == 38
    with Store(file) as exported:
        assert ratings.current(exported).equals(ratings.current(Store(rated_dir)))


def test_a_store_without_ratings_reads_an_empty_typed_table(tmp_path: Path) -> None:
    with Store(build_store(tmp_path / "store")) as store:
        assert not ratings.has_ratings(store)
        assert ratings.current(store).is_empty()
        assert luck.luck(store).is_empty()
        # a handle opened before the ratings were built sees them once they are (the store's stamp changed)
        ratings.rebuild(store.source)
        assert ratings.has_ratings(store)


# --- calendar -------------------------------------------------------------------------------------------

def test_calendar_sums_each_day(rated: Store) -> None:
    days = calendar.calendar(rated, "Ana")
    # 2024-03-01: s1-1 -5, s1-2 0, s1-3 0, s1-4 +140, s1-5 0, s1-6 -110 = +25 over 6 deals
    # 2024-04-15: s2-1 +30, s2-2 -80 (s2-3 is in error, unscored) = -50 over 2 deals
    # 2024-05-01: k1-1 -1
    assert days.rows() == [
        (dt.date(2024, 3, 1), 6, 25, "s1-4", 140, "s1-6", -110),
        (dt.date(2024, 4, 15), 2, -50, "s2-1", 30, "s2-2", -80),
        (dt.date(2024, 5, 1), 1, -1, "k1-1", -1, "k1-1", -1),
    ]
    # Bor's 2024-03-01: 0, 0, +70 (Klop), 0, +110, -110 = +70; his best deal is s1-5 (110), worst s1-6
    bor = calendar.calendar(rated, "Bor", Filters(ruleset="slovenian")).row(0)
    assert bor == (dt.date(2024, 3, 1), 6, 70, "s1-5", 110, "s1-6", -110)
    assert calendar.calendar(rated, "Nobody").is_empty()


def test_text_calendar(rated: Store) -> None:
    out = io.StringIO()
    calendar_report(rated, "Ana", stream=out)
    text = out.getvalue()
    assert "2024" in text and "3 days, 9 deals, net -26" in text
    assert "best day 2024-03-01: +25 over 6 deals (its best deal s1-4, +140)" in text
    assert "worst day 2024-04-15: -50 over 2 deals (its worst deal s2-2, -80)" in text


# --- roles and partners ---------------------------------------------------------------------------------

def test_roles_per_contract(rated: Store) -> None:
    ana = partnerships.roles(rated, Filters(player="Ana"))
    # declared deals Ana sat in (s2-3 is in error, s1-3 a Klop): as declarer tri s1-1 (won, -5) and s2-1 (won,
    # +30), berac s1-4 (won, +140), solo_brez s2-2 (lost, -80); partner in tri s1-6 (lost, -110); defender in
    # dva s1-2 (won, 0), ena s1-5 (lost, 0), rufer k1-1 (lost, -1)
    assert ana.select("role", "contract", "deals", "wins", "mean_score").rows() == [
        ("declarer", "tri", 2, 2, 12.5), ("declarer", "berac", 1, 1, 140.0),
        ("declarer", "solo_brez", 1, 0, -80.0), ("partner", "tri", 1, 0, -110.0),
        ("defender", "dva", 1, 1, 0.0), ("defender", "ena", 1, 0, 0.0), ("defender", "rufer", 1, 0, -1.0),
    ]
    low, high = wilson(2, 2)
    tri = ana.row(0, named=True)
    assert (tri["win_rate"], tri["ci_low"], tri["ci_high"]) == (1.0, pytest.approx(low), 1.0)


def test_partner_pairs_and_the_minimum_sample(rated: Store) -> None:
    # pairs: Ana + Cene (s1-1, won, -5), Ana + Bor (s1-6, lost, -110), Hana + Jan (x-1, won, +225)
    pairs = partnerships.partners(rated)
    assert pairs.select("player_a", "player_b", "deals", "wins").sort("player_a", "player_b").rows() == [
        ("Ana", "Bor", 1, 0), ("Ana", "Cene", 1, 1), ("Hana", "Jan", 1, 1)]
    assert not pairs["ranked"].any() and pairs["rank"].null_count() == 3  # 1 deal < MIN_PAIR_DEALS
    ranked = partnerships.partners(rated, min_deals=1)
    # ranked by the interval's lower end: the two won pairs (0.2065) tie, names break it; the lost one last
    assert ranked.select("player_a", "player_b", "rank", "mean_score").rows() == [
        ("Ana", "Cene", 1, -5.0), ("Hana", "Jan", 2, 225.0), ("Ana", "Bor", 3, -110.0)]
    assert partnerships.partners(rated, Filters(player="Jan"))["player_a"].to_list() == ["Hana"]


@pytest.mark.parametrize("pairs", [club_pairs(), petra_pairs()], ids=["top-pair", "petra"])
def test_the_partner_matrix_shows_every_ranked_pair(pairs: pl.DataFrame) -> None:
    # the dashboard's matrix has at most 24 players; choosing the 12 with the most deals in pairs left out Eva and
    # Franc (the top pair) and 4 of Petra's 15 partners
    players = partnerships.matrix_players(pairs, 24)
    ranked = pairs.filter(pl.col("ranked")).select("player_a", "player_b").rows()
    assert ranked and all(a in players and b in players for a, b in ranked)
    assert len(players) == len(set(pairs["player_a"]) | set(pairs["player_b"]))  # 15 and 16: everybody fits


def test_the_partner_matrix_keeps_the_best_ranked_pairs_when_they_do_not_fit() -> None:
    # with room for 6 players: Petra and the partners of her 5 best-ranked pairs (the most deals, so the
    # narrowest intervals: P14, P13, … P10), and no unranked pair squeezes in
    pairs = petra_pairs()
    players = partnerships.matrix_players(pairs, 6)
    assert players == ["P10", "P11", "P12", "P13", "P14", "Petra"]
    assert pairs.filter(pl.col("rank") <= 5)["player_b"].sort().to_list() == players[:5]


# --- accuracy and luck (an exported file with the solver's table) ---------------------------------------

CARDS = [  # (deal, trick, order, player, card, best_cards, best_points, played_points, point_loss)
    ("s1-1", 1, 0, "Ana", "H4", ["H4"], 8, 8, 0),
    ("s1-1", 2, 3, "Ana", "D4", ["T2"], 13, 8, 5),
    ("s1-1", 1, 1, "Bor", "SK", ["SK"], 8, 8, 0),
    ("s1-1", 2, 0, "Bor", "S7", ["S7", "S8"], 8, 8, 0),
    ("s1-2", 1, 3, "Ana", "C7", ["C8"], 10, 7, 3),
    ("s1-2", 1, 0, "Bor", "H1", ["H1"], 4, 4, 0),
    ("s1-2", 2, 0, "Bor", "T20", ["T2"], 20, 8, 12),
]
HANDS = [  # (deal, player, taroks, kings): Ana's hands, set by hand
    ("s1-1", "Ana", 7, 2), ("s1-2", "Ana", 3, 0), ("s1-3", "Ana", 6, 2), ("s1-4", "Ana", 5, 1),
    ("s2-1", "Ana", 8, 1), ("s2-2", "Ana", 9, 0),
]


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> Store:
    file = tmp_path_factory.mktemp("analysed") / "store.duckdb"
    export_duckdb(build_store(file.parent / "store"), file)
    with duckdb.connect(str(file)) as con:
        for row in CARDS:
            con.execute("INSERT INTO card_analysis VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'test', 'slovenian', 4)",
                        list(row))
        for index, (deal, player, taroks, kings) in enumerate(HANDS):
            n = 3 if deal.startswith("s2") else 4
            # ``latest`` null, as in a file written before the column: ``current`` then reads every row
            con.execute("INSERT INTO ratings VALUES ('slovenian', ?, ?, ?, NULL, NULL, ?, ?, 25, 8, ?, ?, NULL)",
                        [n, index, deal, player, index + 1, taroks, kings])
    return Store(file)


def test_accuracy_summary(analysed: Store) -> None:
    assert accuracy.available(analysed)
    table = accuracy.accuracy(analysed)
    # Ana: losses 0, 5 (s1-1) and 3 (s1-2): 3 cards, 2 deals, 8 lost: 8/3 a card, 4 a deal, 1 of 3 lost nothing
    # Bor: 0, 0 (s1-1), 0, 12 (s1-2): 4 cards, 2 deals, 12 lost: 3 a card, 6 a deal, 3 of 4 lost nothing
    assert table.select("player", "deals", "cards").rows() == [("Ana", 2, 3), ("Bor", 2, 4)]
    assert table["loss_per_card"].to_list() == pytest.approx([8 / 3, 3.0])
    assert table["loss_per_deal"].to_list() == pytest.approx([4.0, 6.0])
    assert table["perfect_share"].to_list() == pytest.approx([1 / 3, 3 / 4])
    biggest = accuracy.biggest_losses(analysed)
    assert biggest.select("deal_id", "player", "card", "point_loss").rows() == [
        ("s1-2", "Bor", "T20", 12), ("s1-1", "Ana", "D4", 5), ("s1-2", "Ana", "C7", 3)]
    assert accuracy.coverage(analysed) == (11, 2)  # 11 deals stored, 2 analysed
    # s1-1 and s1-2 are dated 2024-03-01: from April on nothing is analysed
    april = Filters(date_from=dt.date(2024, 4, 1))
    assert accuracy.accuracy(analysed, april).is_empty() and accuracy.coverage(analysed, april) == (4, 0)
    assert accuracy.accuracy(analysed, Filters(player="Bor"))["player"].to_list() == ["Bor"]


def test_accuracy_without_the_solver_table(rated: Store) -> None:
    assert not accuracy.available(rated)


def test_strong_hands(analysed: Store) -> None:
    row = luck.luck(analysed).row(0, named=True)
    # 4 players: 7 taroks (strong), 3 and 0 kings (no), 2 kings (strong), 5 and 1 (no); 3 players: 8 taroks
    # (< 9, no), 9 taroks (strong): 3 strong of 6, mean taroks 38 / 6, mean kings 6 / 6
    assert (row["player"], row["deals"], row["strong"]) == ("Ana", 6, 3)
    assert row["strong_share"] == pytest.approx(0.5)
    assert row["mean_taroks"] == pytest.approx(38 / 6) and row["mean_kings"] == pytest.approx(1.0)


def test_report_by_player(rated: Store) -> None:
    out = io.StringIO()
    report(rated, by="player", filters=Filters(ruleset="slovenian", players=4), fmt="csv", stream=out)
    frame = pl.read_csv(io.StringIO(out.getvalue()))
    # every player of the slovenian four-player deals: Ana Bor Cene Dana Gal Hana Ivo Jan, all rated
    assert sorted(frame["player"].to_list()) == ["Ana", "Bor", "Cene", "Dana", "Gal", "Hana", "Ivo", "Jan"]
    assert frame["ordinal"].is_sorted(descending=True)
    ana = frame.filter(pl.col("player") == "Ana").row(0, named=True)
    # Ana declared s1-1 (tri) and s1-4 (berac) at four, both won
    assert (ana["games"], ana["deals"], ana["declared"], ana["won"]) == (6, 6, 2, 2)
    with pytest.raises(ValueError, match="by player is a report of its own"):
        report(rated, by=("player", "contract"), stream=io.StringIO())
    text = io.StringIO()
    report(rated, by="player", stream=text)
    assert "Slovenian, 4 players" in text.getvalue() and "±" in text.getvalue()
