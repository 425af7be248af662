"""Where players' bids sat against the hand model: per declared deal, the contract played against the one
with the best expected score for the declarer's dealt hand (``analysis.hand_model``).

A deal counts when the model has an estimate for the contract played.  The best contract is the one of
highest expected score among those with an estimate in the deal's ruleset and number of players.  The bid
was ``over`` when the contract played stands higher on the ruleset's ladder (``tarock.deal.CONTRACTS``)
than the best one, ``under`` when lower, ``as model`` when it is the best one.  ``gain`` is the expected
score the best contract had over the one played (0 when they are the same).
"""

from __future__ import annotations

import numpy as np
import polars as pl

from analysis.filters import NO_FILTERS, Filters
from analysis.hand_fit import feature_matrix, training_frame
from analysis.hand_model import HandModel
from analysis.store import Store
from tarock.deal import CONTRACTS

VERDICTS = ("under", "as model", "over")


def bid_review(store: Store, model: HandModel, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """One row per declared deal whose contract has an estimate: deal, declarer, contract played and its
    win probability and expected score, the best contract and its expected score, ``gain`` and ``verdict``."""
    frame = training_frame(store, filters)
    parts = []
    for (ruleset, n_players), part in frame.group_by(["ruleset", "n_players"], maintain_order=True):
        ladder = CONTRACTS[str(ruleset)]
        fitted = [(c, model.groups[key]) for c in ladder if (key := (str(ruleset), int(n_players), c)) in model.groups]
        if not fitted:
            continue
        x = feature_matrix(part)
        probabilities = np.column_stack([fit.predict(x)[0] for _, fit in fitted])
        scores = np.column_stack([fit.expected_score(probabilities[:, j]) for j, (_, fit) in enumerate(fitted)])
        names = [c for c, _ in fitted]
        column = {c: j for j, c in enumerate(names)}
        played = np.array([column.get(c, -1) for c in part["contract"]])
        keep = played >= 0
        rows = np.flatnonzero(keep)
        best = scores[rows].argmax(axis=1)
        at = played[rows]
        rank = np.array([ladder.index(c) for c in names])
        parts.append(part[rows].select("deal_id", "declarer", "contract", "won").with_columns(
            p=pl.Series(probabilities[rows, at]), expected_score=pl.Series(scores[rows, at]),
            best=pl.Series([names[j] for j in best], dtype=pl.String), best_score=pl.Series(scores[rows, best]),
            gain=pl.Series(scores[rows, best] - scores[rows, at]),
            verdict=pl.Series(np.where(rank[at] > rank[best], "over", np.where(rank[at] < rank[best], "under",
                                                                                "as model")), dtype=pl.String)))
    if not parts:
        return pl.DataFrame(schema={"deal_id": pl.String, "declarer": pl.String, "contract": pl.String,
                                    "won": pl.Boolean, "p": pl.Float64, "expected_score": pl.Float64,
                                    "best": pl.String, "best_score": pl.Float64, "gain": pl.Float64,
                                    "verdict": pl.String})
    return pl.concat(parts)


def by_player(review: pl.DataFrame) -> pl.DataFrame:
    """Per declarer: deals reviewed, how many bids were under, as the model, over, and the mean ``gain``."""
    return (review.group_by("declarer")
            .agg(deals=pl.len(), **{v.replace(" ", "_"): (pl.col("verdict") == v).sum() for v in VERDICTS},
                 mean_gain=pl.col("gain").mean())
            .sort(["deals", "declarer"], descending=[True, False]))
