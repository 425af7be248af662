"""The analysis questions on a store written by the real ingest, against an oracle in plain Python.

Simulated sessions (4 and 3 players, with mistakes: renons, score-sheet
slips) are ingested; every question's answer is then recomputed from the
``tarock check`` results of the same records (what ingest stores), reading
the engine's own score lines — including the words of their explanations
("silent … made", "announced … failed") — rather than the store.  So the
SQL's reading of the stored columns (roles, component columns,
announcements, plays) is checked against what the engine meant.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from analysis import audit, bonuses, king_calls, outcomes, players, sessions, win_rates
from analysis.filters import Filters
from analysis.store import Store
from ingest.commands import ingest
from tarock.check.checker import check_items
from tarock.check.result import DealCheck
from tarock.formats.reader import read_records
from tarock.sim.simulate import simulate

BONUS_NAMES = ("trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang")
POINTS_CONTRACTS = ("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena", "solo_brez")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, list[dict[str, Any]],
                                                                       list[DealCheck]]]:
    """(the ingested store, the records, their check results)."""
    root = tmp_path_factory.mktemp("analysis-ingest")
    records = [r for r, _ in simulate(4, 30, 20, seed=5, mistakes=0.1)]
    records += [r for r, _ in simulate(3, 10, 20, seed=6, mistakes=0.1)]
    path = root / "sim.jsonl"
    path.write_bytes(b"".join(orjson.dumps(r) + b"\n" for r in records))
    summary = ingest([path], root / "store", "local:1", quiet=True)
    assert summary.stored == len(records)
    checks = [c for c in check_items(read_records(path)) if isinstance(c, DealCheck)]
    assert len(checks) == len(records)
    store = Store(root / "store")
    yield store, records, checks
    store.close()


def declared(checks: list[DealCheck]) -> list[DealCheck]:
    return [c for c in checks if c.declarer is not None and c.status != "error" and c.won is not None]


def side(check: DealCheck, player: str) -> int:
    return 1 if player in (check.declarer, check.partner) else -1


def test_win_rates_and_outcomes(corpus: tuple[Store, list, list]) -> None:
    store, _, checks = corpus
    want: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # deals, wins, score sum, close
    for c in declared(checks):
        w = want[c.contract]
        w[0] += 1
        w[1] += c.won
        w[2] += c.scores[c.declarer]
        w[3] += c.contract in POINTS_CONTRACTS and 31 <= c.card_points["declarer_side"] <= 40
    got = win_rates.win_rates(store)
    assert {r[0]: (r[1], r[2]) for r in got.select("contract", "deals", "wins").iter_rows()} == {
        k: (v[0], v[1]) for k, v in want.items()}
    for row in outcomes.outcomes(store).iter_rows(named=True):
        deals_, _, total, close = want[row["contract"]]
        assert row["avg_score"] == pytest.approx(total / deals_)
        assert row["close"] == (close if row["contract"] in POINTS_CONTRACTS else None)


def test_bonuses_match_the_engines_lines(corpus: tuple[Store, list, list]) -> None:
    store, records, checks = corpus
    announced_in = {r["id"]: {a["bonus"] for a in r.get("announcements", ()) if "bonus" in a} for r in records}
    want: dict[str, Counter[str]] = {b: Counter() for b in BONUS_NAMES}
    for c in declared(checks):
        lines = [ln for ln in c.breakdown if ln.component in BONUS_NAMES]
        for bonus in announced_in[c.id]:
            want[bonus]["announced"] += 1
        for ln in lines:
            counts, detail = want[ln.component], ln.detail
            if ln.component == "mondfang":
                if "mondfang" not in announced_in[c.id]:
                    counts["silent_made"] += 1
                elif "(announced)" in detail:
                    counts["announced_made"] += 1
                continue
            how = "made" if re.search(r"\bmade\b", detail) else "failed"
            counts[("silent_" if detail.startswith("silent") else "announced_") + how] += 1
        if "mondfang" in announced_in[c.id] and not any("(announced)" in ln.detail for ln in lines):
            want["mondfang"]["announced_failed"] += 1
    got = bonuses.bonuses(store, Filters(ruleset="slovenian"))
    for row in got.iter_rows(named=True):
        w = want[row["bonus"]]
        assert {k: row[k] for k in ("silent_made", "silent_failed", "announced", "announced_made",
                                    "announced_failed")} == {
            k: w[k] for k in ("silent_made", "silent_failed", "announced", "announced_made", "announced_failed")
        }, row["bonus"]
    assert got.filter(got["bonus"] == "pagat_ultimo")["silent_failed"][0] > 0  # the case plays decide


def test_game_kontras(corpus: tuple[Store, list, list]) -> None:
    store, records, checks = corpus
    by_id = {r["id"]: r for r in records}
    kontra = won = 0
    for c in declared(checks):
        said = [a for a in by_id[c.id].get("announcements", ()) if a.get("kontra") == "game"]
        if said:
            kontra += 1
            first = min(said, key=lambda a: a["level"])
            won += side(c, first["player"]) * (1 if c.won else -1) > 0
    row = bonuses.kontras(store, Filters(ruleset="slovenian")).row(0, named=True)
    assert (row["target"], row["kontra"], row["kontra_won"]) == ("game", kontra, won)


def test_king_calls_and_reveals(corpus: tuple[Store, list, list]) -> None:
    store, records, checks = corpus
    by_id = {r["id"]: r for r in records}
    want: Counter[str] = Counter()
    reveals: Counter[int] = Counter()
    for c in declared(checks):
        king = by_id[c.id].get("called_king")
        if king is None:
            continue
        if c.partner is not None:
            want["with_partner"] += 1
            reveals[next(i for i, t in enumerate(c.tricks, 1)
                         if king in t["cards"] and t["players"][t["cards"].index(king)] == c.partner)] += 1
        elif king in by_id[c.id]["talon"]:
            want["king_in_talon"] += 1
        else:
            want["own_king"] += 1
    got = king_calls.king_calls(store)
    assert {k: got[k].sum() for k in ("with_partner", "own_king", "king_in_talon")} == dict(want)
    assert dict(king_calls.partner_reveals(store).select("trick", "revealed").iter_rows()) == dict(reveals)


def test_players(corpus: tuple[Store, list, list]) -> None:
    store, _, checks = corpus
    deals_: Counter[str] = Counter()
    score: Counter[str] = Counter()
    renons: Counter[str] = Counter()
    last: dict[tuple[str, str], int] = {}
    for c in checks:
        for p in c.players:
            deals_[p] += 1
            if c.scores is not None:
                score[p] += c.scores[p]
                last[(c.session or c.id, p)] = c.radelci_after[p]
        for f in c.findings:
            renons[f.player] += f.severity == "renons"
    radelci: Counter[str] = Counter()
    for (_, p), n in last.items():
        radelci[p] += n
    for row in players.players(store).iter_rows(named=True):
        p = row["player"]
        assert (row["deals"], row["total_score"], row["radelci"], row["renons"]) == (
            deals_[p], score[p], radelci[p], renons[p]), p


def test_audit_and_sessions(corpus: tuple[Store, list, list]) -> None:
    store, _, checks = corpus
    mismatches = [(c.id, f.player) for c in checks for f in c.findings if f.code == "A_SCORE_MISMATCH"]
    got = audit.disputes(store)
    assert sorted(zip(got["deal_id"], got["player"])) == sorted(set(mismatches))
    codes = Counter(f.code for c in checks for f in c.findings if f.severity == "renons")
    assert dict(audit.renons(store).select("code", "renons").iter_rows()) == dict(codes)
    first = checks[0].session
    totals: Counter[str] = Counter()
    want = []
    for c in (c for c in checks if c.session == first):
        for p in c.players:
            totals[p] += (c.scores or {}).get(p, 0)
            want.append((c.seq, p, totals[p]))
    got_totals = sessions.running_totals(store, session=first)
    assert sorted(got_totals.select("seq", "player", "total").iter_rows()) == sorted(want)


def test_players_of_an_error_deal_are_listed_and_counted(tmp_path: Path) -> None:
    # player_names and overview's players count read results' player column when no filter needs deals
    # (issue 22); results holds a row for every player of an error deal too (docs/store.md), so a player who
    # sat only at a deal in error still counts.  Two deals: a clean one of Igor, Petra, Hana, Ana, and a copy
    # renamed to W1..W4 whose first play is a card its player does not hold (E_NOT_IN_HAND: status error).
    from analysis import overview

    clean = [r for r, _ in simulate(4, 1, 1, seed=5, mistakes=0)][0]
    names = dict(zip(clean["players"], ("W1", "W2", "W3", "W4")))
    text = orjson.dumps(clean).decode()
    for old, new in names.items():
        text = re.sub(rf'"{old}(?=[":])', f'"{new}', text)
    broken = orjson.loads(text)
    broken["id"], broken["session"] = "broken-1", "broken"
    lead = broken["tricks"][0][0].split(":")[0]
    foreign = next(c for p, hand in broken["hands"].items() if p != lead for c in hand)
    broken["tricks"][0][0] = f"{lead}:{foreign}"
    path = tmp_path / "two.jsonl"
    path.write_bytes(orjson.dumps(clean) + b"\n" + orjson.dumps(broken) + b"\n")
    assert ingest([path], tmp_path / "store", "local:1", quiet=True).stored == 2
    with Store(tmp_path / "store") as store:
        statuses = store.query("SELECT status FROM deals ORDER BY status")["status"].to_list()
        assert statuses == ["error", "ok"]
        expected = sorted([*clean["players"], "W1", "W2", "W3", "W4"])
        assert players.player_names(store)["player"].to_list() == expected
        assert overview.overview(store).row(0, named=True)["players"] == 8
        # the same answers the deals' own lists give (the path a date filter takes)
        since = Filters(date_from=dt.date(2000, 1, 1))
        assert players.player_names(store, since)["player"].to_list() == expected
        assert overview.overview(store, since).row(0, named=True)["players"] == 8
