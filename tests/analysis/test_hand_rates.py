"""``tarock report --by hand-feature``: win rates by what the declarer was dealt, against counts made here.

The store is simulated 4-player deals, ingested.  The expected groups are counted in this file from the
input records themselves (the declarer's kings, counted from the record's hand as cards whose code ends
in ``K``), with each deal's ``won`` and status from the ``deals`` table; the Wilson interval is the
textbook formula written out below, not ``analysis.stats``.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from analysis.hand_rates import FEATURES, hand_feature_rates
from analysis.store import Store
from ingest.coordinator import run_ingest
from tarock.cli import app
from tarock.sim.simulate import simulate
from tests.support.ingest_util import write_jsonl


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    base = tmp_path_factory.mktemp("hand_rates")
    records = [r for r, _ in simulate(4, 30, 20, seed=11)]
    write_jsonl(base / "in" / "sim.jsonl", records)
    run_ingest([base / "in"], base / "store", "local:1")
    return base / "store", records


def _wilson(k: int, n: int) -> tuple[float, float]:
    """The Wilson score interval as textbooks write it: (p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)."""
    z = 1.959963984540054
    p = k / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n), (centre + half) / (1 + z * z / n)


def test_counts_by_the_declarers_kings_match_the_records(simulated: tuple[Path, list[dict[str, Any]]]) -> None:
    store_dir, records = simulated
    with Store(store_dir) as store:
        status = {row["deal_id"]: (row["status"], row["won"], row["declarer"])
                  for row in store.query("SELECT deal_id, status, won, declarer FROM deals").to_dicts()}
        rates = hand_feature_rates(store, "kings", min_deals=1)
    expected: Counter[tuple[str, int, bool]] = Counter()
    for record in records:
        deal_status, won, declarer = status[record["id"]]
        if declarer is None or deal_status == "error" or won is None or record["contract"] == "klop":
            continue  # what the win rates count: a declarer, no error, a result
        kings = sum(card.endswith("K") for card in record["hands"][declarer])
        expected[record["contract"], kings, won] += 1
    got = {(row["contract"], row["kings"]): (row["deals"], row["wins"]) for row in rates.to_dicts()}
    want = {(c, k): (expected[c, k, True] + expected[c, k, False], expected[c, k, True])
            for c, k, _ in expected}
    assert got == want
    assert len(want) > 5  # several contracts and king counts: the grouping is exercised


def test_wilson_interval_and_the_minimum_sample_guard(simulated: tuple[Path, list[dict[str, Any]]]) -> None:
    store_dir, _ = simulated
    with Store(store_dir) as store:
        rates = hand_feature_rates(store, "taroks", min_deals=20).to_dicts()
    rated = [row for row in rates if row["deals"] >= 20]
    assert rated and any(row["deals"] < 20 for row in rates)
    for row in rates:
        if row["deals"] < 20:  # too few deals: counts kept, no rate
            assert not row["estimate"] and row["win_rate"] is None and row["ci_low"] is None
            continue
        k, n = row["wins"], row["deals"]
        assert row["estimate"] and row["win_rate"] == pytest.approx(k / n)
        if 0 < k < n:
            low, high = _wilson(k, n)
            assert (row["ci_low"], row["ci_high"]) == (pytest.approx(low), pytest.approx(high))


def test_the_command(simulated: tuple[Path, list[dict[str, Any]]]) -> None:
    store_dir, _ = simulated
    runner = CliRunner()
    result = runner.invoke(app, ["report", "--store", str(store_dir), "--by", "hand-feature", "--feature", "kings",
                                 "-f", "json", "--min-deals", "5"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["hand_feature_rates"]
    assert rows and all(set(row) >= {"contract", "kings", "deals", "wins", "win_rate", "ci_low", "ci_high"}
                        for row in rows)
    bad = runner.invoke(app, ["report", "--store", str(store_dir), "--by", "hand-feature", "--feature", "nonsense"])
    assert bad.exit_code == 2 and "taroks" in bad.output
    assert "taroks" in FEATURES and "hand_mask" not in FEATURES
