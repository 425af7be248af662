"""The compiled scorer (``tarock.accel.scorer``) against the reference ``tarock.rules.slovenian.scoring.score_deal``.

For every case the C scorer gets the kernel's raw facts tuple and the reference the ``DealFacts``
``tarock.accel.lane`` builds from it; both must give the same ``won``, scores and radelci after, the
same breakdown JSON per player byte for byte (``orjson`` of the reference's lines, as ingest writes
it), and component triples equal to the reference's lines, line by line and player by player.  The
corpus (> 100,000 cases): random legal deals of 3 and 4 players replayed in the fast lane (the raw
tuples the kernel really returns), some with valid announcements and kontras, scored under option
sets that move every option scoring reads; and random raw facts that reach the corners (silent
pagat failures, king ultimo, 0/1/2 Mondfangs, valat of either side, full and empty Klop results,
every radelc rule, every announcement and kontra), with awkward player names.  Every case is one
the C scorer claims to support, so none may be declined.
"""

from __future__ import annotations

import os
import random
import shutil
import struct
import subprocess
import sys
import sysconfig
from dataclasses import replace
from typing import Any

import orjson
import pytest

from tarock import accel
from tarock.accel import scorer as fast_score
from tarock.facts import DECLARER, OPPONENTS, DealFacts, Side
from tarock.accel.lane import _PAGAT_LAST, _SIDES, replay_slovenian
from tarock.options import DEFAULT_SLOVENIAN, SlovenianOptions, slovenian_options
from tarock.sim.randomplay import random_record
from tarock.formats.codec import deal_from_obj
from tarock.rules.rulesets import ALL_COMPONENTS
from tarock.rules.slovenian.scoring import score_deal
from tarock.rules.slovenian.contracts import CARDS_PER_HAND, CONTRACTS, allowed_contract

needs_c = pytest.mark.skipif(not fast_score.BUILT or accel.KERNEL is None,
                             reason="the C scorer or the kernel is not built here")

D = DEFAULT_SLOVENIAN
OPTION_SETS: tuple[SlovenianOptions, ...] = (
    D,
    replace(D, diff_rounding="none", silent_pagat_failure=False),
    replace(D, radelci=False, mondfang_value=20),
    replace(D, radelc_scope="each_player", klop_radelc_double=False),
    replace(D, radelc_scope="each_player", diff_rounding="none", mondfang_value=20, penalty="annul"),
    replace(D, klop_radelc_double=False, silent_pagat_failure=False, mondfang_value=25, penalty="austrian_renonce"),
    slovenian_options({"preset": "openspiel"}),
)
"""Every value of every option scoring reads (diff_rounding, silent_pagat_failure, mondfang_value,
radelci, radelc_scope, klop_radelc_double) in some set; the penalty, which only offenders meet, too."""

ROSTERS: tuple[tuple[str, ...], ...] = (
    ("Ana", "Boris", "Cilka", "David"),
    ('Ana "the Pagat"', "back\\slash", "new\nline\ttab\x01\x1f\x7f", "Žiga 🃏 ×"),
    ("</script>", "it's", "\u2028\u2029", "\"\\\"\\"),
)
"""Plain names and names JSON must escape (quotes, backslashes, control characters) or not (non-ASCII)."""

TARGETS = ("game", "pagat_ultimo", "king_ultimo", "valat", "mondfang")
BONUSES = ("trula", "kings", "pagat_ultimo", "king_ultimo", "valat", "mondfang")


def test_the_c_scorer_is_built_where_a_compiler_is() -> None:
    """A machine with a C compiler builds ``tarock.accel._fastscore``; without one ingest scores with the reference."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc}) here")
    assert fast_score.BUILT
    assert fast_score.scorer() is fast_score.score_lane


# --- the two scorers ------------------------------------------------------------------------------------


def facts_from_raw(players: tuple[str, ...], contract: str, declarer: int | None, partner: int | None,
                   options: SlovenianOptions, raw: tuple[Any, ...], announced: tuple[tuple[str, Side], ...] = (),
                   kontra: dict[str, int] | None = None) -> DealFacts:
    """The ``DealFacts`` ``tarock.accel.lane.replay_slovenian`` builds from the kernel's raw facts."""
    c = CONTRACTS[contract]
    if c.is_klop:
        points, taken = raw
        return DealFacts(players, "klop", options=options, klop_points=points, klop_tricks=taken)
    dp, op, valat_side, trula_side, kings_side, pagat_last, king_last, mondfang, lost_trick, decided = raw
    per_hand = CARDS_PER_HAND[len(players)]
    return DealFacts(
        players, contract, declarer, partner, options, (dp, op),
        declarer_took_trick=c.is_beggar and decided > 0,
        declarer_lost_trick=c.is_valat and lost_trick > 0,
        valat_side=_SIDES[valat_side], trula_side=_SIDES[trula_side], kings_side=_SIDES[kings_side],
        pagat_last=_PAGAT_LAST[pagat_last], king_last=_SIDES[king_last], mondfang=mondfang,
        announced=announced, kontra=dict(kontra or {}),
        decided_early=decided if 0 < decided < per_hand else None,
    )


Outcome = tuple[Any, list[tuple[int, int, int]]]


def reference(facts: DealFacts, before: tuple[int, ...], first_row: int) -> Outcome:
    """What ingest makes of ``score_deal``: (won, scores, radelci after, breakdown JSON) and the triples."""
    result = score_deal(facts, dict(zip(facts.players, before)))
    players = facts.players
    jsons = tuple(orjson.dumps([{"players": list(line.players), "component": line.component, "detail": line.detail,
                                 "value": line.value} for line in result.lines if p in line.players]).decode()
                  for p in players)
    triples = [(first_row + players.index(p), ALL_COMPONENTS.index(line.component), line.value)
               for line in result.lines for p in line.players]
    return (result.won, tuple(result.scores[p] for p in players),
            tuple(result.radelci_after[p] for p in players), jsons), triples


def compiled(facts: DealFacts, raw: tuple[Any, ...], before: tuple[int, ...], first_row: int) -> Outcome | None:
    """The C scorer's answer for the same deal, or None when it declines (then it must append nothing)."""
    components = bytearray(b"previous rows")
    got = fast_score.score_lane(facts.contract, facts.players, facts.declarer, facts.partner, facts.options, raw,
                                before, first_row, components, facts.announced, facts.kontra)
    if got is None:
        assert components == b"previous rows"
        return None
    assert components[:13] == b"previous rows"
    return got, list(struct.iter_unpack("<iii", bytes(components[13:])))


class Tally:
    """Cases compared, and the contracts and kinds of line (a detail's words before its colon) they reached."""

    def __init__(self) -> None:
        self.cases = 0
        self.seen: set[str] = set()

    def compare(self, facts: DealFacts, raw: tuple[Any, ...], before: tuple[int, ...], first_row: int) -> None:
        want = reference(facts, before, first_row)
        got = compiled(facts, raw, before, first_row)
        assert got is not None, f"declined a supported case: {facts} {before}"
        assert got == want, f"{facts} before {before}"
        assert type(got[0][0]) is type(want[0][0])  # True, False or None, not 1 or 0
        self.cases += 1
        self.seen.add(facts.contract)
        for breakdown in want[0][3]:
            self.seen.update(line["detail"].split(":")[0] for line in orjson.loads(breakdown))


def random_before(rng: random.Random, n: int) -> tuple[int, ...]:
    """Radelci held: mostly none, now and then 1 to 3, rarely very many."""
    return tuple(0 if rng.random() < 0.7 else rng.choice((1, 1, 2, 3, 10**12)) for _ in range(n))


# --- real deals: the kernel's own facts --------------------------------------------------------------------


class Capture:
    """The kernel, remembering the raw facts of the last lane it played."""

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel
        self.raw: tuple[Any, ...] | None = None

    def lane(self, *args: Any) -> Any:
        out = self.kernel.lane(*args)
        self.raw = None if out is None else out[-1]
        return out


def announce(rng: random.Random, rec: dict[str, Any]) -> None:
    """Announcements and kontras a replay may accept (those it refuses make the lane give up: skipped)."""
    players, declarer = rec["players"], rec.get("declarer")
    others = [p for p in players if p != declarer]
    items: list[dict[str, Any]] = []
    for bonus in rng.sample(["trula", "kings", "valat", "mondfang", "king_ultimo"], rng.randrange(1, 4)):
        items.append({"player": rng.choice(others) if bonus == "mondfang" else declarer, "bonus": bonus})
    if rng.random() < 0.6:
        items.append({"player": rng.choice(others), "kontra": "game", "level": 2})
        if rng.random() < 0.5:
            items.append({"player": declarer, "kontra": "game", "level": 4})
    rec["announcements"] = items


@needs_c
def test_replayed_deals_score_alike() -> None:
    """Random legal deals of every contract replayed in the fast lane (some with announcements and kontras),
    each scored under every option set with random radelci: the C scorer equals the reference."""
    rng = random.Random(20261129)
    kernel = Capture(accel.KERNEL)
    tally = Tally()
    announced = 0
    for i in range(3_500):
        n = (3, 4)[i % 2]
        rec = random_record(rng, n)
        if rec.get("declarer") is not None and CONTRACTS[rec["contract"]].bonuses and rng.random() < 0.3:
            announce(rng, rec)
        deal = deal_from_obj(rec)
        rp = replay_slovenian(deal, D, kernel)  # type: ignore[arg-type]
        if rp is None:
            assert deal.announcements, "a legal deal without announcements must take the lane"
            continue
        assert kernel.raw is not None and rp.facts is not None
        facts = rp.facts
        assert facts == facts_from_raw(deal.players, deal.contract, facts.declarer, facts.partner, D, kernel.raw,
                                       facts.announced, dict(facts.kontra))
        announced += bool(facts.announced or facts.kontra)
        for options in OPTION_SETS:
            for _ in range(2):
                tally.compare(replace(facts, options=options), kernel.raw, random_before(rng, n), rng.randrange(10**6))
    assert tally.cases >= 40_000
    assert announced >= 200
    assert tally.seen >= set(CONTRACTS)


# --- random raw facts: the corners ----------------------------------------------------------------------------


def random_raw(rng: random.Random, contract: str, n: int) -> tuple[Any, ...]:
    """Raw facts as the kernel codes them, each field over its whole range."""
    if contract == "klop":
        cuts = sorted(rng.randrange(71) for _ in range(n - 1))
        points = tuple(b - a for a, b in zip([0, *cuts], [*cuts, 70]))
        if rng.random() < 0.3:  # a heap: someone over 35
            points = tuple(rng.choice((0, 36, 50, 70)) if s == 0 else p for s, p in enumerate(points))
        tricks = tuple(0 if rng.random() < 0.25 else rng.randrange(1, 17) for _ in range(n))
        return points, tricks
    dp = rng.choice((rng.randrange(71), 35, 36, 0, 70))
    mondfang = tuple(rng.randrange(n) for _ in range(rng.choice((0, 0, 0, 1, 1, 2))))
    return (dp, 70 - dp, rng.choice((0, 0, 0, 1, 2)), rng.randrange(3), rng.randrange(3), rng.randrange(5),
            rng.randrange(3), mondfang, rng.randrange(2), rng.randrange(CARDS_PER_HAND[n] + 1))


def random_announcements(rng: random.Random) -> tuple[tuple[tuple[str, Side], ...], dict[str, int]]:
    """Any announcements (twice over, unknown ones too) and any kontras scoring takes (irrelevant ones too)."""
    announced: tuple[tuple[str, Side], ...] = ()
    kontra: dict[str, int] = {}
    if rng.random() < 0.4:
        announced = tuple((rng.choice(BONUSES + ("forty",)), rng.choice((DECLARER, OPPONENTS)))
                          for _ in range(rng.randrange(1, 6)))
    if rng.random() < 0.4:
        kontra = {t: rng.choice((1, 2, 4, 8, 16)) for t in rng.sample(TARGETS + ("trula",), rng.randrange(1, 4))}
    return announced, kontra


@needs_c
def test_random_facts_score_alike() -> None:
    """80,000 random raw facts of every contract, 3 and 4 players, every option set, random radelci,
    announcements and kontras, plain and awkward names: the C scorer equals the reference."""
    rng = random.Random(4)
    tally = Tally()
    for i in range(80_000):
        n = (3, 4)[i % 2]
        roster = ROSTERS[i % len(ROSTERS)][:n]
        contract = rng.choice([c for c in CONTRACTS if allowed_contract(CONTRACTS[c], n)])
        declarer = partner = None
        if contract != "klop":
            declarer = rng.randrange(n)
            if CONTRACTS[contract].calls_king and n == 4 and rng.random() < 0.8:
                partner = rng.choice([s for s in range(n) if s != declarer])
        raw = random_raw(rng, contract, n)
        announced, kontra = random_announcements(rng)
        facts = facts_from_raw(roster, contract, declarer, partner, rng.choice(OPTION_SETS), raw, announced, kontra)
        tally.compare(facts, raw, random_before(rng, n), rng.randrange(10**6))
    assert tally.cases == 80_000
    wanted = {"silent pagat ultimo failed by the declarer's side", "silent pagat ultimo failed by the opponents",
              "silent king ultimo made by the declarer's side", "silent valat made by the opponents",
              "silent valat made by the declarer's side", "valat announced and failed", "Mondfang",
              "Klop", "radelc", "pagat ultimo announced by the opponents and made",
              "king ultimo announced by the opponents and failed", "trula announced and failed"}
    assert wanted <= tally.seen, wanted - tally.seen


# --- what it declines ------------------------------------------------------------------------------------------


@needs_c
def test_it_declines_what_it_does_not_support_and_appends_nothing() -> None:
    roster = ROSTERS[0]
    raw = (40, 30, 0, 1, 0, 0, 0, (), 0, 0)
    cases: list[dict[str, Any]] = [
        {"players": ROSTERS[0] + ("Eva",)},                      # five players
        {"players": ("Ana", "Ana", "Cilka", "David")},           # a name twice
        {"players": ("x" * 300, "Boris", "Cilka", "David")},     # a name too long for the buffers
        {"players": ("\ud800", "Boris", "Cilka", "David")},      # a lone surrogate: orjson refuses it
        {"contract": "trischaken"},                              # not a slovenian contract
        {"kontra": {"game": 3}},                                 # no such kontra
        {"kontra": {"game": 2.0}},                               # not an int
        {"announced": (("trula", "nobody"),)},                   # no such side
        {"facts": (71, 0, 0, 1, 0, 0, 0, (), 0, 0)},              # more card points than the deck
        {"facts": (40, 30, 0, 1, 0, 5, 0, (), 0, 0)},             # no such Pagat code
        {"facts": (40, 30, 0, 1, 0, 0, 0, (4,), 0, 0)},           # no such seat
        {"facts": (40, 30, 0, 1, 0, 0, 0, ())},                   # not the kernel's tuple
        {"before": (-1, 0, 0, 0)},
        {"before": (2**70, 0, 0, 0)},
        {"declarer": None},
        {"partner": 0},                                          # the declarer as partner
    ]
    for case in cases:
        args = {"contract": "tri", "players": roster, "declarer": 0, "partner": 1, "facts": raw,
                "before": (0,) * len(case.get("players", roster)), "announced": (), "kontra": None, **case}
        components = bytearray(b"kept")
        assert fast_score.score_lane(args["contract"], args["players"], args["declarer"], args["partner"], D,
                                     args["facts"], args["before"], 0, components, args["announced"],
                                     args["kontra"]) is None, case
        assert components == b"kept"
    components = bytearray()
    assert fast_score.score_lane("tri", roster, 0, 1, D, raw, (0,) * 4, 0, components) is not None
    assert components


# --- switched off ----------------------------------------------------------------------------------------------


@needs_c
def test_the_reference_switch_turns_it_off() -> None:
    with accel.reference():
        assert fast_score.scorer() is None
    assert fast_score.scorer() is not None
    env = dict(os.environ, TAROCK_REFERENCE="1")
    code = "from tarock.accel import scorer as fast_score; assert fast_score.scorer() is None"
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def test_it_imports_without_the_extension() -> None:
    code = ("import sys; sys.modules['tarock.accel._fastscore'] = None\n"
            "from tarock.accel import scorer as fast_score\n"
            "assert not fast_score.BUILT and fast_score.scorer() is None")
    subprocess.run([sys.executable, "-c", code], check=True)
