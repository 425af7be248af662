"""A CPU limit on the solver (``search.cpu_limit``) and the per-deal limit of the analysis built on it.

A stopped search must leave its tables as good as cold ones (only finished subtrees are stored): the value
asked again after the stop is the cold table's.  An analysis under a limit goes from the last trick back and
stops where the limit ran out: its cards must be exactly what an analysis from that trick, without a limit,
says; with room to spare it is the analysis without a limit.  The command line and the store say where a
deal's analysis stopped.
"""

from __future__ import annotations

import random
from pathlib import Path

import orjson
import pytest

from tarock import accel
from tarock.engine import replay
from tarock.formats.codec import deal_from_obj
from tarock.sim.randomplay import random_record
from tarock.solver import search
from tarock.solver.analyse import analyse_deal
from tarock.solver.position import position_before


def slow_deal() -> object:
    """A generated 4-player Dva whose whole-deal value takes the compiled core about 2.5 CPU seconds (the solver
    benchmark's deal 2 of seed 1: 24 million nodes): far more than the limits below."""
    rng = random.Random("1-4-2")
    return deal_from_obj(random_record(rng, 4, rng.choice(("tri", "dva", "ena", "solo_tri", "solo_dva",
                                                           "solo_ena"))))


@pytest.mark.skipif(not search.compiled_available(position_before(replay(slow_deal()), 1).options),
                    reason="the compiled core is not built")
def test_a_stopped_search_leaves_the_compiled_tables_sound() -> None:
    position = position_before(replay(slow_deal()), 1)
    search.clear_cache()
    with pytest.raises(search.SearchStopped), search.cpu_limit(0.05):
        search.value(position)
    stopped_at = search.node_count()
    assert stopped_at > 0  # it searched, and stopped (the whole search takes hundreds of times as many nodes)
    after_stop = search.value(position)
    search.clear_cache()
    assert after_stop == search.value(position)
    assert search.node_count() > 10 * stopped_at


def test_a_stopped_search_leaves_the_reference_tables_sound() -> None:
    # the reference looks at the clock at every trick boundary: a limit already spent stops it at the first
    # one it searches; from trick 8 the reference finishes in seconds
    position = position_before(replay(slow_deal()), 8)
    with accel.reference():
        search.clear_cache()
        with pytest.raises(search.SearchStopped), search.cpu_limit(0):
            search.value(position)
        after_stop = search.value(position)
        search.clear_cache()
        assert after_stop == search.value(position)
    search.clear_cache()


def test_limits_nest_and_the_outer_one_still_holds() -> None:
    position = position_before(replay(slow_deal()), 1)
    search.clear_cache()
    with pytest.raises(search.SearchStopped), search.cpu_limit(0.05), search.cpu_limit(None), search.cpu_limit(60):
        search.value(position)
    assert search._limit.deadline == 0.0  # every limit undone on the way out
    search.clear_cache()


def test_an_analysis_under_a_limit_keeps_the_tricks_it_reached() -> None:
    deal = slow_deal()
    search.clear_cache()
    report = analyse_deal(deal, 1, limit=0.3)
    first = report["analysed_from"]
    assert report["from_trick"] == 1 and 1 < first <= 12
    # four cards a trick, from the trick reached to the last, in play order
    assert [c["trick"] for c in report["cards"]] == [t for t in range(first, 13) for _ in range(4)]
    search.clear_cache()
    whole = analyse_deal(deal, first)
    assert report["cards"] == whole["cards"] and report["best"] == whole["best"]


def test_an_analysis_with_room_to_spare_is_the_one_without_a_limit() -> None:
    deal = slow_deal()
    search.clear_cache()
    limited = analyse_deal(deal, 9, limit=60)
    search.clear_cache()
    assert limited == {**analyse_deal(deal, 9), "analysed_from": 9}
    assert limited["analysed_from"] == 9


def test_a_limit_spent_before_the_last_trick_is_an_error() -> None:
    # the reference looks at the clock at every trick boundary, so a limit of 0 stops its first search (the
    # compiled core looks every 4,096 nodes: it finishes the last tricks, which take fewer)
    with accel.reference():
        search.clear_cache()
        report = analyse_deal(slow_deal(), 1, limit=0)
    search.clear_cache()
    assert report == {"id": report["id"], "from_trick": 1,
                      "error": "the CPU limit of 0 s stopped the analysis before its last trick"}


def test_the_command_line_says_where_the_limit_stopped(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tarock.cli import app

    rng = random.Random("1-4-2")
    record = random_record(rng, 4, rng.choice(("tri", "dva", "ena", "solo_tri", "solo_dva", "solo_ena")))
    path = tmp_path / "slow.json"
    path.write_bytes(orjson.dumps(record))
    search.clear_cache()
    out = CliRunner().invoke(app, ["analyse", str(path), "--limit", "0.3", "-f", "json"]).output
    report = orjson.loads(out.splitlines()[0])
    assert report["from_trick"] == 1 and report["analysed_from"] > 1
    search.clear_cache()
    result = CliRunner().invoke(app, ["analyse", str(path), "--limit", "0.3"])
    assert result.exit_code == 0
    assert "(asked from trick 1: the CPU limit stopped the tricks before" in result.output
    bad = CliRunner().invoke(app, ["analyse", str(path), "--limit", "0"])
    assert bad.exit_code == 2 and "--limit" in bad.output


def test_each_thread_keeps_its_own_limit() -> None:
    # a Dask worker runs tasks in threads: a limit set in one thread does not stop another's search
    import threading

    position = position_before(replay(slow_deal()), 8)
    seen: list[int] = []
    search.clear_cache()
    with search.cpu_limit(0):
        other = threading.Thread(target=lambda: seen.append(search.value(position)))
        other.start()
        other.join()
    search.clear_cache()
    assert seen == [search.value(position)]
