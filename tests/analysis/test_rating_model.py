"""The rating model on simulated pools: the pool's mean μ stays where it started, and the order follows strength.

Deals are drawn with numpy (no records, no store) in ``_MATCHES``'s shape and rated by
``analysis.ratings.compute`` — the compiled update (``analysis/_ratings.c``) when it is built — with the
shapes a four-player pool has: a solo declarer against three, a declarer and partner against two, Königrufen's
two declarers of one negative game each with their own result, and a Klop (each player alone).  The sides
differ in size on purpose: the model before this one (a side's strength the sum of its μ) let the pool's
mean fall from 25 towards 0 (docs/analysis.md, Ratings).
"""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.rating_update import MU
from analysis.ratings import PoolState, compute

SHAPES = ("solo", "pair", "two_negative", "klop")


def simulate(rng: np.random.Generator, n_deals: int, skills: np.ndarray, declarer_edge: float) -> pl.DataFrame:
    """``n_deals`` four-player deals among ``len(skills)`` players, in ``_MATCHES``'s columns.

    Each deal seats four players drawn at random and picks a shape; the declaring side wins with the
    logistic chance of ``declarer_edge`` plus its players' mean skill minus the other side's (a Klop's
    scores are each player's skill plus noise).  Equal skills give a pool where nobody is better.
    """
    seats = np.argsort(rng.random((n_deals, len(skills))), axis=1)[:, :4]
    shape = rng.integers(0, len(SHAPES), n_deals)
    declaring = np.zeros((n_deals, 4), bool)
    declaring[:, 0] = True
    declaring[:, 1] = (shape == 1) | (shape == 2)
    skill = skills[seats]
    own = np.where(declaring, skill, 0).sum(1) / declaring.sum(1)
    other = np.where(~declaring, skill, 0).sum(1) / (~declaring).sum(1)
    chance = 1 / (1 + np.exp(-(declarer_edge + own - other)))
    declarer_won = rng.random(n_deals) < chance
    won = np.where(declaring, declarer_won[:, None], ~declarer_won[:, None])
    second_won = rng.random(n_deals) < 1 / (1 + np.exp(-(skill[:, 1] - skill[:, 2:].mean(1))))
    negative = shape == 2  # the second declarer has a result of their own; the opponents lose if the first wins
    won[negative, 1] = second_won[negative]
    role = np.where(declaring, "declarer", "opponent").astype(object)
    role[shape == 1, 1] = "partner"
    klop = shape == 3
    role[klop] = "klop"
    score = np.where(won, 30, -30)
    score[klop] = np.round(skill[klop] * 20 + rng.normal(0, 20, (klop.sum(), 4))).astype(int)
    won_cells = won.astype(object)
    won_cells[klop] = None
    rows = n_deals * 4
    return pl.DataFrame({
        "ruleset": ["slovenian"] * rows, "n_players": np.full(rows, 4, np.int32),
        "g": np.repeat(np.arange(1, n_deals + 1), 4), "deal_id": np.repeat(np.arange(n_deals), 4).astype(str),
        "date": None, "contract": None, "player": [f"p{i}" for i in seats.ravel()],
        "role": role.ravel().tolist(), "won": won_cells.ravel().tolist(), "score": score.ravel(),
        "taroks": None, "kings": None,
    }, schema_overrides={"date": pl.Date, "contract": pl.String, "won": pl.Boolean, "score": pl.Int32,
                         "taroks": pl.Int8, "kings": pl.Int8})


def final_mus(frame: pl.DataFrame) -> dict[str, float]:
    pools: dict[tuple[str, int], PoolState] = {}
    compute(frame, pools)
    return {player: mu for player, (mu, _, _) in pools[("slovenian", 4)].players.items()}


def test_the_pool_mean_stays_where_it_started() -> None:
    """100,000 deals of eight equally strong players, the declarers winning two deals in three (as on the
    bundled sample): each deal moves μ between its players only, so the mean of the pool stays at 25."""
    mus = final_mus(simulate(np.random.default_rng(38), 100_000, np.zeros(8), declarer_edge=0.7))
    assert abs(np.mean(list(mus.values())) - MU) < 1
    # nobody is better, so nobody drifts far from the rest (σ settles near 1 after 50,000 deals each)
    assert max(mus.values()) - min(mus.values()) < 5


@pytest.mark.parametrize("seed", range(2))
def test_the_order_follows_strength(seed: int) -> None:
    """Six players whose skills are 0.4 apart on the logistic scale: after 20,000 deals their μ come out
    in the order of their skill, the spread of the pool around its start of 25."""
    skills = np.arange(6) * 0.4
    mus = final_mus(simulate(np.random.default_rng(seed), 20_000, skills, declarer_edge=0.7))
    assert sorted(mus, key=mus.__getitem__) == [f"p{i}" for i in range(6)]
    assert abs(np.mean(list(mus.values())) - MU) < 1e-6
