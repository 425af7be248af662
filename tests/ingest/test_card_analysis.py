"""``tarock analyse --store``: the card_analysis table, written into a real store and read back through DuckDB.

A store is ingested from generated deals (point contracts, Berač and Klop among them); the analysis runs from
trick 10, so the solver answers at once.  Every row is checked against the solver run on the same record by
hand here (``analyse_deal``), the deals chosen against the rules of docs/store.md (status ok, point contracts),
a second run must write nothing, and ``--where`` narrows the deals.
"""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pyarrow.parquet as pq
import pytest

from ingest.card_analysis import analyse_store, pending
from ingest.coordinator import run_ingest
from ingest.schema import CARD_ANALYSIS
from ingest.store import export_duckdb, open_store
from tarock.cards import CODES
from tarock.deal import Deal
from tarock.engine import replay
from tarock.formats.codec import deal_from_obj
from tarock.sim.randomplay import random_record
from tarock.solver.analyse import SOLVER_VERSION, analyse_deal
from tarock.solver.decisive import DECISIVE_VERSION, verdicts
from tests.support.ingest_util import write_jsonl
from tests.test_cli import run

CONTRACTS = ["tri", "dva", "solo_ena", "berac", "klop", "valat"]
JUDGED = [f"deal-{i:02d}" for i in range(16) if i >= 12 or CONTRACTS[i % len(CONTRACTS)] != "klop"]
"""The deals judged card by card: every one but the two Klops (the generated deals are clean)."""


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    """A store of 12 generated 4-player and 4 three-player deals (two of each contract, 3 players: Tri, Dva)."""
    rng = random.Random(20)
    records = [random_record(rng, 4, CONTRACTS[i % len(CONTRACTS)]) for i in range(12)]
    records += [random_record(rng, 3, ["tri", "dva"][i % 2]) for i in range(4)]
    for i, r in enumerate(records):
        r["id"] = f"deal-{i:02d}"
    src = tmp_path / "deals.jsonl"
    write_jsonl(src, records)
    target = tmp_path / "store"
    run_ingest([src], target, "local:1")
    return target


def stored_rows(store: Path, columns: str) -> tuple[list[tuple], dict[str, list[tuple]], dict[str, str]]:
    """``card_analysis``'s ``columns`` (``deal_id`` first) in play order, the same rows by deal, and each stored
    deal's record."""
    con = open_store(store)
    rows = con.sql(f'SELECT {columns} FROM card_analysis ORDER BY deal_id, trick, "order"').fetchall()
    records = dict(con.sql("SELECT deal_id, record FROM deals").fetchall())
    con.close()
    by_deal: dict[str, list[tuple]] = {}
    for row in rows:
        by_deal.setdefault(row[0], []).append(row)
    return rows, by_deal, records


def test_the_store_gets_a_row_per_card_of_each_point_deal_and_a_rerun_writes_nothing(store: Path) -> None:
    con = open_store(store)
    assert con.sql("SELECT count(*) FROM card_analysis").fetchall() == [(0,)]  # the empty typed view
    chosen = con.sql("SELECT deal_id FROM deals WHERE contract IN ('tri', 'dva', 'solo_ena') AND status = 'ok' "
                     "ORDER BY deal_id").fetchall()
    con.close()
    # 4 players: Tri, Dva, Solo ena twice each; 3 players: Tri and Dva twice each — Berač, Klop, Valat are not
    assert [d for (d,) in chosen] == [f"deal-{i:02d}" for i in (0, 1, 2, 6, 7, 8, 12, 13, 14, 15)]
    todo = pending(store)
    assert sorted(p.deal_id for p in todo if p.exact) == [d for (d,) in chosen]
    # every clean deal with sides is judged card by card from trick 1: the point deals, Berač and Valat, not Klop
    assert sorted(p.deal_id for p in todo if p.game) == sorted(p.deal_id for p in todo) == JUDGED

    counts = analyse_store(store, executor="local:1", from_trick=10)
    # from trick 10: 3 tricks of 4 cards (12 rows) with 4 players, 7 tricks of 3 cards (21 rows) with 3 players
    misplays = sum(v.decided for d in JUDGED for v in verdicts(stored_deal(store, d)))
    assert counts == {"deals": len(JUDGED), "cards": 6 * 12 + 4 * 21, "partial": 0, "judged": len(JUDGED),
                      "misplays": misplays}

    rows, by_deal, records = stored_rows(store, 'deal_id, trick, "order", player, card, best_cards, best_points, '
                                                'played_points, point_loss, solver_version, ruleset, n_players')
    assert sorted(by_deal) == [d for (d,) in chosen]
    for deal_id, got in by_deal.items():
        deal = deal_from_obj(orjson.loads(records[deal_id]))
        report = analyse_deal(deal, 10)
        want = [(deal_id, c["trick"], i % deal.n_players, c["player"], c["card"], c["best_cards"], c["best_points"],
                 c["played_points"], c["point_loss"], SOLVER_VERSION, "slovenian", deal.n_players)
                for i, c in enumerate(report["cards"])]
        assert got == want
        assert all(r[8] >= 0 and r[8] == r[6] - r[7] and (r[8] == 0) == (r[4] in r[5]) for r in got)

    files = sorted((store / "card_analysis").rglob("part-*.parquet"))
    assert {f.parent.relative_to(store).as_posix() for f in files} == {
        "card_analysis/ruleset=slovenian/n_players=4", "card_analysis/ruleset=slovenian/n_players=3"}
    # the partition columns live in the path only, the rest as the schema says
    assert pq.read_schema(files[0]).names == [f.name for f in CARD_ANALYSIS][:-2]

    assert analyse_store(store, executor="local:1", from_trick=10) == {"deals": 0, "cards": 0, "partial": 0,
                                                                        "judged": 0, "misplays": 0}
    assert sorted((store / "card_analysis").rglob("part-*.parquet")) == files

    exported = export_duckdb(store, store.parent / "export.duckdb")
    assert exported["card_analysis"] == len(rows)


def stored_deal(store: Path, deal_id: str) -> Deal:
    """The stored record of ``deal_id``, as a deal."""
    con = open_store(store)
    (record,), = con.execute("SELECT record FROM deals WHERE deal_id = ?", [deal_id]).fetchall()
    con.close()
    return deal_from_obj(orjson.loads(record))


def test_every_card_of_every_deal_with_sides_is_judged_against_the_win_condition(store: Path) -> None:
    analyse_store(store, executor="local:1", from_trick=12)
    con = open_store(store)
    rows = con.sql('SELECT deal_id, trick, "order", player, card, declarer_side, declarer_could_win, '
                   'declarer_can_win, decided, kept, solver_version, n_players FROM game_analysis '
                   'ORDER BY deal_id, trick, "order"').fetchall()
    con.close()
    by_deal: dict[str, list[tuple]] = {}
    for row in rows:
        by_deal.setdefault(row[0], []).append(row)
    assert sorted(by_deal) == JUDGED
    for deal_id, got in by_deal.items():
        deal = stored_deal(store, deal_id)
        want = [(deal_id, v.trick, v.order, v.player, CODES[v.card], v.declarer_side, v.declarer_could_win,
                 v.declarer_can_win, v.decided, [CODES[c] for c in v.kept], DECISIVE_VERSION, deal.n_players)
                for v in verdicts(deal)]
        assert got == want and len(got) == 48
    # a card decides the game exactly when its side's answer went from yes to no
    for r in rows:
        ours_before = r[6] if r[5] else not r[6]
        ours_after = r[7] if r[5] else not r[7]
        assert r[8] == (ours_before and not ours_after) and bool(r[9]) == r[8]


def test_where_narrows_the_deals_and_the_command_line_reports(store: Path) -> None:
    code, out = run("analyse", "--store", str(store), "--where", "n_players = 3", "--from-trick", "12",
                    "--executor", "local:1")
    assert code == 0
    # 3 players, trick 12 of 16: 5 tricks of 3 cards, 4 deals
    assert "analysed 4 deals: 60 cards with their point losses from trick 12" in out
    assert "4 deals judged card by card from trick 1" in out and "coverage of the store's " in out
    con = open_store(store)
    assert con.sql("SELECT DISTINCT n_players FROM card_analysis").fetchall() == [(3,)]
    con.close()
    assert sorted(p.deal_id for p in pending(store)) == [d for d in JUDGED if int(d[-2:]) < 12]
    assert run("analyse", "--store", str(store), "some-file.jsonl")[0] == 2


def test_a_limit_per_deal_keeps_the_tricks_each_deal_reached(store: Path) -> None:
    counts = analyse_store(store, executor="local:1", from_trick=1, limit=0.2)
    rows, by_deal, records = stored_rows(store, 'deal_id, trick, "order", card, best_cards, point_loss')
    assert counts["deals"] == len(JUDGED) and len(by_deal) == 10 and counts["cards"] == len(rows)
    # the game verdicts run under the same limit: a deal it stopped has no rows and stays pending for them
    con = open_store(store)
    (judged,), = con.sql("SELECT count(DISTINCT deal_id) FROM game_analysis").fetchall()
    con.close()
    assert counts["judged"] == judged
    assert sorted(p.deal_id for p in pending(store) if p.game) == sorted(
        set(JUDGED) - {d for (d,) in open_store(store).sql("SELECT DISTINCT deal_id FROM game_analysis").fetchall()})
    # a deal the limit stopped starts at a later trick; whatever trick it reached, its rows are what an
    # analysis from that trick without a limit says, every card of every trick from there to the end
    firsts = {deal_id: got[0][1] for deal_id, got in by_deal.items()}
    assert counts["partial"] == sum(first > 1 for first in firsts.values())
    for deal_id, got in by_deal.items():
        deal = deal_from_obj(orjson.loads(records[deal_id]))
        report = analyse_deal(deal, firsts[deal_id])
        assert [(r[1], r[3], r[4], r[5]) for r in got] == [
            (c["trick"], c["card"], c["best_cards"], c["point_loss"]) for c in report["cards"]]
        assert len(got) == deal.n_players * (len(replay(deal).tricks) - firsts[deal_id] + 1)


def test_a_filter_that_is_not_one_expression_is_refused_and_writes_nothing(store: Path) -> None:
    # pasted into the query's text, "1=1) OR (1=1" closed the filter's parenthesis and OR-ed away every other
    # condition: rows were written for Berač, Klop and Valat deals, which are never analysed (issue 35)
    for where in ("1=1) OR (1=1", "true; DROP VIEW deals", "contract = 'tri') OR (contract = 'berac'"):
        code, out = run("analyse", "--store", str(store), "--where", where, "--from-trick", "12",
                        "--executor", "local:1")
        assert code == 2 and "--where must be one SQL expression" in out, where
        assert not (store / "card_analysis").exists()
    # one expression, however wide, only narrows: the Berač, Klop and Valat deals stay out
    counts = analyse_store(store, "contract IN ('berac', 'klop', 'valat') OR true", "local:1", from_trick=12)
    con = open_store(store)
    assert con.sql("SELECT DISTINCT d.contract FROM card_analysis a JOIN deals d USING (deal_id) ORDER BY 1"
                   ).fetchall() == [("dva",), ("solo_ena",), ("tri",)]
    con.close()
    assert counts["deals"] == len(JUDGED)


def test_one_analysis_at_a_time_so_no_card_is_written_twice(store: Path) -> None:
    # two runs at once cut the pending deals into batches of their own: each batch file named by its deals, so
    # the second run's files did not overwrite the first's and every card of the shared deals was stored twice
    from ingest.layout import ANALYSE_LOCK, StoreBusy, StoreLayout

    with StoreLayout.at(store).lock(ANALYSE_LOCK, "analyse"):
        with pytest.raises(StoreBusy, match="another analyse is running"):
            analyse_store(store, executor="local:1", from_trick=12)
        code, out = run("analyse", "--store", str(store), "--from-trick", "12", "--executor", "local:1")
        assert code == 2 and "another analyse is running" in out
        # an ingest may run beside it: the analysis lock is not ingest's
        with StoreLayout.at(store).lock():
            pass
    assert not (store / "card_analysis").exists()
    assert analyse_store(store, executor="local:1", from_trick=12)["deals"] == len(JUDGED)


def test_report_lists_each_misplay_that_decided_a_game_and_counts_them_per_player(store: Path) -> None:
    code, out = run("report", "--store", str(store), "--what", "misplays")
    assert code == 0 and "Misplays that decided the game (0; 0 of 16 deals judged" in out
    analyse_store(store, executor="local:1", from_trick=12)
    con = open_store(store)
    decided = con.sql('SELECT deal_id, trick, "order", player, card, kept FROM game_analysis WHERE decided '
                      'ORDER BY deal_id, trick, "order"').fetchall()
    per_player = dict(con.sql("SELECT player, count(*) FILTER (WHERE decided) FROM game_analysis GROUP BY player"
                              ).fetchall())
    con.close()
    assert decided  # generated deals are played at random: some card decides some game
    code, out = run("report", "--store", str(store), "--what", "misplays", "-f", "json")
    assert code == 0
    listed = orjson.loads(out)["misplays"]
    assert sorted((m["deal_id"], m["trick"], m["order"], m["player"], m["card"], m["kept"]) for m in listed) == \
        [tuple(r) for r in decided]
    code, out = run("report", "--store", str(store), "--what", "misplays")
    assert code == 0 and f"({len(decided)}; {len(JUDGED)} of 16 deals judged" in out
    # the per-player table: one row per player with their count, and one line per misplay naming the card
    for player, count in per_player.items():
        assert any(line.split()[:1] == ["│"] and player in line and f" {count} " in line for line in out.splitlines())
    first = listed[0]
    assert f"Trick {first['trick']}: {first['player']} played " in out and first["message"].startswith(
        f"Trick {first['trick']}: {first['player']} played ")
