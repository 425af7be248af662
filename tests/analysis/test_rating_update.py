"""The rating update: three deals worked step by step, the library where the model is OpenSkill's, and its laws.

``analysis/rating_update.py`` is OpenSkill's Plackett-Luce update with a
side's strength the mean of its players' μ and the update made zero-sum.
The hand-worked test follows that documented update one quantity at a time
(openskill's default parameters) and checks the ``ratings`` builder
(``analysis.ratings.compute``) against it; for players each alone with equal
σ the model is openskill's own (``PlackettLuce().rate``), which is checked on
random matches; on any match the μ changes sum to zero.
"""

from __future__ import annotations

import math
import random

import polars as pl
import pytest
from openskill.models import PlackettLuce

from analysis.rating_update import rate
from analysis.ratings import PLACES, SIDES, SKIP, TWO, _deal_starts, _kinds, compute

MU0, SIGMA0, BETA, TAU, KAPPA = 25.0, 25.0 / 3.0, 25.0 / 6.0, 25.0 / 300.0, 0.0001


def by_hand(state: dict[str, tuple[float, float]], teams: list[list[str]], ranks: list[int]) -> None:
    """One match by the documented update, step by step; ``state`` (player -> (mu, sigma)) updated in place."""
    # 1. the dynamics: every sigma widened by tau before the match
    s2 = {p: state[p][1] ** 2 + TAU ** 2 for team in teams for p in team}
    # 2. a side's mu is its players' mean, its variance that of the mean; c from all sides' variances and beta
    team_mu = [sum(state[p][0] for p in team) / len(team) for team in teams]
    team_s2 = [sum(s2[p] for p in team) / len(team) ** 2 for team in teams]
    c = math.sqrt(sum(v + BETA ** 2 for v in team_s2))
    # 3. S_q sums exp(mu_s / c) over the sides s ranked no better than q; A_q counts sides tied with q
    k = len(teams)
    big_s = [sum(math.exp(team_mu[s] / c) for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    big_a = [sum(1 for s in range(k) if ranks[s] == ranks[q]) for q in range(k)]
    step: dict[str, float] = {}
    new: dict[str, tuple[float, float]] = {}
    for i, team in enumerate(teams):
        # 4. the side's gradient g and curvature h over the sides q ranked no worse than i
        g = h = 0.0
        for q in range(k):
            if ranks[q] > ranks[i]:
                continue
            p = math.exp(team_mu[i] / c) / big_s[q]
            g += ((1.0 if q == i else 0.0) - p) / big_a[q]
            h += p * (1 - p) / big_a[q]
        gamma = math.sqrt(team_s2[i]) / c
        n = len(team)
        # 5. each player a 1/n share of the side's gradient and 1/n^2 of its curvature, scaled by their variance
        for p in team:
            step[p] = s2[p] * g / (n * c)
            new[p] = (0.0, math.sqrt(s2[p]) * math.sqrt(max(1 - s2[p] * h * gamma / (n * n * c * c), KAPPA)))
    # 6. zero-sum: the deal's net change taken back in proportion to each player's variance
    shift = sum(step.values()) / sum(s2.values())
    state.update({p: (state[p][0] + step[p] - s2[p] * shift, sigma) for p, (_, sigma) in new.items()})


PLAYERS = ["Ana", "Bor", "Cene", "Dana"]
# Three deals of one Slovenian four-player pool, seat order Ana Bor Cene Dana:
#   1. Tri by Ana with partner Cene, won: {Ana, Cene} rank 1 against {Bor, Dana} rank 2;
#   2. Solo by Bor, lost: the three opponents {Ana, Cene, Dana} rank 1 against {Bor} rank 2;
#   3. Klop, scores Ana -10, Bor -35, Cene -10, Dana 0: Dana first, Ana and Cene tied second (rank 2), Bor 4th.
MATCHES = [
    ([["Ana", "Cene"], ["Bor", "Dana"]], [1, 2]),
    ([["Ana", "Cene", "Dana"], ["Bor"]], [1, 2]),
    ([["Ana"], ["Bor"], ["Cene"], ["Dana"]], [2, 4, 2, 1]),
]
ROWS = {  # per deal: role, won, score per player in seat order (what ``results`` stores)
    "d1": (["declarer", "opponent", "partner", "opponent"], [True, False, True, False], [40, -40, 40, -40]),
    "d2": (["opponent", "declarer", "opponent", "opponent"], [True, False, True, True], [0, -80, 0, 0]),
    "d3": (["klop"] * 4, [None] * 4, [-10, -35, -10, 0]),
}


def test_three_deals_follow_the_documented_update() -> None:
    hand = {p: (MU0, SIGMA0) for p in PLAYERS}
    after: list[dict[str, tuple[float, float]]] = []
    for teams, ranks in MATCHES:
        by_hand(hand, teams, ranks)
        after.append(dict(hand))
        assert sum(mu for mu, _ in hand.values()) == pytest.approx(4 * MU0, abs=1e-9)  # zero-sum
    # deal 1: equal sides, so the winners gain exactly what the losers lose, and everyone's sigma shrinks
    # in numbers: v = (25/3)^2 + (25/300)^2 = 69.45139, a side's variance of its mean 2v/4 = 34.72569,
    # c = sqrt(2 * 34.72569 + 2 * (25/6)^2) = 10.20655, p = 1/2 (equal means), a player's step
    # v * (1 - 1/2) / (2 * 10.20655) = 1.70115
    gain = after[0]["Ana"][0] - MU0
    assert gain == pytest.approx(1.70115, abs=1e-5)
    assert after[0]["Bor"][0] - MU0 == pytest.approx(-gain)
    assert all(after[0][p][1] < SIGMA0 for p in PLAYERS)
    # deal 2: Bor's solo lost to three; the side means are Bor's own 23.3 against the opponents' 25.6, so
    # what Bor loses the three share: each of them gains, Bor loses about three times any one's gain
    gains = [after[1][p][0] - after[0][p][0] for p in ("Ana", "Cene", "Dana")]
    assert all(x > 0 for x in gains)
    assert after[1]["Bor"][0] - after[0]["Bor"][0] == pytest.approx(-sum(gains))
    # deal 3: Ana and Cene tied and had the same rating before it, so they end equal
    assert after[2]["Ana"] == pytest.approx(after[2]["Cene"])

    frame = pl.DataFrame({
        "g": [n for n in range(3) for _ in PLAYERS], "deal_id": [d for d in ROWS for _ in PLAYERS], "contract": [None] * 12,
        "ruleset": ["slovenian"] * 12, "n_players": [4] * 12, "date": [None] * 12, "player": PLAYERS * 3,
        "role": [r for d in ROWS.values() for r in d[0]], "won": [w for d in ROWS.values() for w in d[1]],
        "score": [s for d in ROWS.values() for s in d[2]], "taroks": [None] * 12, "kings": [None] * 12,
    }, schema_overrides={"date": pl.Date, "n_players": pl.Int32, "taroks": pl.Int32, "kings": pl.Int32})
    rated = compute(frame)
    assert rated["deal_index"].to_list() == [0] * 4 + [1] * 4 + [2] * 4
    assert rated["games"].to_list() == [1] * 4 + [2] * 4 + [3] * 4
    for n, snapshot in enumerate(after):
        got = rated.filter(pl.col("deal_index") == n)
        for row in got.iter_rows(named=True):
            mu, sigma = snapshot[row["player"]]
            assert row["mu"] == pytest.approx(mu, abs=1e-12)
            assert row["sigma"] == pytest.approx(sigma, abs=1e-12)


def test_deals_without_a_result_are_not_rated() -> None:
    """An annulled deal (no won) and a Klop without scores give no rows; the next deal's index is 0."""
    frame = pl.DataFrame({
        "g": [0] * 3 + [1] * 3 + [2] * 3, "deal_id": ["a"] * 3 + ["b"] * 3 + ["c"] * 3, "contract": [None] * 9,
        "ruleset": ["slovenian"] * 9, "n_players": [3] * 9, "date": [None] * 9, "player": ["X", "Y", "Z"] * 3,
        "role": ["declarer", "opponent", "opponent", "klop", "klop", "klop", "declarer", "opponent", "opponent"],
        "won": [None, None, None, None, None, None, False, True, True],
        "score": [None, None, None, None, None, None, -50, 0, 0], "taroks": [None] * 9, "kings": [None] * 9,
    }, schema_overrides={"date": pl.Date, "n_players": pl.Int32, "taroks": pl.Int32, "kings": pl.Int32})
    rated = compute(frame)
    assert rated["deal_id"].to_list() == ["c", "c", "c"]
    assert rated["deal_index"].to_list() == [0, 0, 0]


@pytest.mark.parametrize("seed", range(4))
def test_players_alone_with_equal_sigma_are_rated_as_by_the_library(seed: int) -> None:
    """500 random matches per seed of 3-4 players each alone with one σ and random ties: a side of one is its
    player's mean, and with equal σ the zero-sum correction is nothing, so the model is openskill's."""
    rng = random.Random(seed)
    model = PlackettLuce()
    for _ in range(500):
        n = rng.choice([3, 4])
        mus = [rng.uniform(-20, 50) for _ in range(n)]
        sigmas = [rng.uniform(0.3, 9)] * n
        teams = [[i] for i in range(n)]
        ranks = [rng.randint(1, n) for _ in range(n)]
        expected = model.rate([[model.rating(mu=mus[p], sigma=sigmas[p]) for p in t] for t in teams],
                              ranks=list(ranks))
        got_mu, got_sigma = rate(mus, sigmas, teams, ranks)
        for team, after in zip(teams, expected):
            for p, r in zip(team, after):
                assert got_mu[p] == pytest.approx(r.mu, rel=1e-9, abs=1e-9)
                assert got_sigma[p] == pytest.approx(r.sigma, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_every_match_is_zero_sum_and_the_winners_gain(seed: int) -> None:
    """500 random matches per seed, sides of 1-3 against 1-3 with random σ, or players each alone: the μ
    changes sum to zero; with two sides every winner gains and every loser loses."""
    rng = random.Random(seed)
    for _ in range(500):
        n = rng.choice([3, 4])
        mus = [rng.uniform(-20, 50) for _ in range(n)]
        sigmas = [rng.uniform(0.3, 9) for _ in range(n)]
        if rng.random() < 0.5:
            teams = [[i] for i in range(n)]
            ranks = [rng.randint(1, n) for _ in range(n)]
        else:
            order = rng.sample(range(n), n)
            cut = rng.randint(1, n - 1)
            teams = [order[:cut], order[cut:]]
            ranks = rng.choice([[1, 2], [2, 1]])
        got_mu, _ = rate(mus, sigmas, teams, ranks)
        assert sum(got_mu) == pytest.approx(sum(mus), abs=1e-9)
        if len(teams) == 2:
            for team, place in zip(teams, ranks):
                assert all((got_mu[p] > mus[p]) == (place == 1) for p in team)


def random_deal(rng: random.Random, names: list[str]) -> tuple[list[str], list[str], list[bool | None], list[int]]:
    """Players, roles, won and scores of a random four-player deal: a declared game with or without a partner,
    Königrufen's two declarers of one negative game each with their own result, or a Klop (ties likely)."""
    seated = rng.sample(names, 4)
    shape = rng.choice(["pair", "solo", "two_negative", "klop"])
    if shape == "klop":
        return seated, ["klop"] * 4, [None] * 4, [rng.choice([-70, -35, -10, 0, 0, 70]) for _ in range(4)]
    won = rng.random() < 0.6
    if shape == "two_negative":
        first, second = rng.random() < 0.5, rng.random() < 0.5
        roles = ["declarer", "declarer", "opponent", "opponent"]
        return seated, roles, [first, second, not first, not first], [10 if w else -10 for w in (first, second)] + [0, 0]
    roles = ["declarer", "partner" if shape == "pair" else "opponent", "opponent", "opponent"]
    side = [True, shape == "pair", False, False]
    wins = [won if s else not won for s in side]
    return seated, roles, wins, [40 if w else -40 for w in wins]


@pytest.mark.parametrize("seed", range(3))
def test_ratings_follow_the_update_deal_by_deal(seed: int) -> None:
    """300 random deals of six players through ``compute`` (its inline two-team update included), and the same
    deals through ``rate`` one by one, each read as docs/analysis.md says: sides split by result, winners
    first; a Klop each player alone, placed by score."""
    rng = random.Random(seed)
    names = ["Ana", "Bor", "Cene", "Dana", "Eva", "Fran"]
    deals = [random_deal(rng, names) for _ in range(300)]
    frame = pl.DataFrame({
        "g": [i for i, d in enumerate(deals) for _ in d[0]],
        "deal_id": [f"d{i}" for i, d in enumerate(deals) for _ in d[0]],
        "contract": None,
        "ruleset": "koenigrufen", "n_players": 4, "date": None,
        "player": [p for d in deals for p in d[0]], "role": [r for d in deals for r in d[1]],
        "won": [w for d in deals for w in d[2]], "score": [s for d in deals for s in d[3]],
        "taroks": None, "kings": None,
    }, schema_overrides={"date": pl.Date, "n_players": pl.Int32, "taroks": pl.Int32, "kings": pl.Int32,
                         "won": pl.Boolean})
    rated = compute(frame)
    # the compiled two-team update (analysis/_ratings.c, when built) gives the reference's ratings bit for bit
    assert compute(frame, reference=True).equals(rated)
    state = {p: (MU0, SIGMA0) for p in names}
    expected: list[tuple[str, str, float, float]] = []
    for i, (seated, roles, won, scores) in enumerate(deals):
        if roles[0] == "klop":
            groups = [[p] for p in seated]
            ranks = [1 + sum(other > mine for other in scores) for mine in scores]
        else:
            sides: dict[tuple[bool, bool | None], list[str]] = {}
            for p, role, w in zip(seated, roles, won):
                sides.setdefault((role == "opponent", w), []).append(p)
            groups = list(sides.values())
            ranks = [1 if w else 2 for _, w in sides]
        if len(set(ranks)) < 2:
            continue
        before = [state[p] for p in seated]
        index = {p: i for i, p in enumerate(seated)}
        new_mu, new_sigma = rate([m for m, _ in before], [s for _, s in before],
                                 [[index[p] for p in group] for group in groups], ranks)
        state.update({p: (new_mu[index[p]], new_sigma[index[p]]) for p in seated})
        expected.extend((f"d{i}", p, *state[p]) for p in seated)
    assert rated.height == len(expected)
    for row, (deal, player, mu, sigma) in zip(rated.iter_rows(named=True), expected):
        assert (row["deal_id"], row["player"]) == (deal, player)
        assert row["mu"] == pytest.approx(mu, rel=1e-9, abs=1e-9)
        assert row["sigma"] == pytest.approx(sigma, rel=1e-9, abs=1e-9)


def test_how_each_deal_is_rated() -> None:
    """The kind of each deal, by the module docstring's rules, in deals of two pools (the pool changes between
    two deals numbered alike): two sides, several sides, places, and the deals not rated."""
    deals = [  # (pool, g, roles, won, scores) -> the kind by hand
        (("slovenian", 4), 1, ["declarer", "partner", "opponent", "opponent"], [True, True, False, False],
         [30, 30, -30, -30]),  # TWO: declarer's side won, opponents lost: two (side, result) groups
        (("slovenian", 4), 2, ["declarer", "declarer", "opponent", "opponent"], [True, False, True, True],
         [20, -20, 0, 0]),  # SIDES: a Königrufen-like pair of declarers split by result: three groups
        (("slovenian", 4), 3, ["declarer", "opponent", "opponent", "opponent"], [True, True, True, True],
         [10, 0, 0, 0]),  # SKIP: every player's result is the same (won by all)
        (("slovenian", 3), 3, ["klop", "klop", "klop"], [None, None, None],
         [-10, -20, -10]),  # PLACES: a Klop whose scores differ (a new pool, the same g as the deal before)
        (("slovenian", 3), 4, ["klop", "klop", "klop"], [None, None, None],
         [0, 0, 0]),  # SKIP: a Klop in which everyone scored the same
        (("slovenian", 3), 5, [None, None, None], [None, None, None],
         [5, 0, 0]),  # PLACES: no declarer and no Klop: the roles' tests pass on no role, the scores differ
        (("slovenian", 3), 6, ["declarer", "opponent", "opponent"], [None, None, None],
         [None, None, None]),  # SKIP: an annulled deal, no result
    ]
    rows = [(ruleset, n, g, role, won, score)
            for (ruleset, n), g, roles, wons, scores in deals for role, won, score in zip(roles, wons, scores)]
    frame = pl.DataFrame(rows, schema={"ruleset": pl.String, "n_players": pl.Int32, "g": pl.Int64,
                                       "role": pl.String, "won": pl.Boolean, "score": pl.Int32}, orient="row")
    bounds = _deal_starts(frame)
    assert bounds.tolist() == [0, 4, 8, 12, 15, 18, 21, 24]
    assert _kinds(frame, bounds).tolist() == [TWO, SIDES, SKIP, PLACES, SKIP, PLACES, SKIP]
