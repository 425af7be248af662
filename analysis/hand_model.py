"""What a hand is worth, as fitted: per contract P(the declarer's side wins | dealt hand), its 95 % interval
and the expected score (docs/analysis.md, "What a hand is worth").

The fitted model only: numpy and the standard library, so ``tarock advise`` loads it and answers without
scikit-learn (fitting and evaluating it: ``analysis.hand_fit``).  One ``GroupFit`` per
(ruleset, number of players, contract): a logistic regression over the standardised ``FEATURES`` of the
declarer's dealt hand, with the covariance of its coefficients for the delta-method interval and the
contract's mean declarer scores of won and lost deals for the expected score.  Saved beside the store
(``model_dir``) as a pickle of plain arrays with a JSON of what it was fitted on.
"""

from __future__ import annotations

import json
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from statistics import NormalDist
from typing import Any

import numpy as np

from ingest.hand_features import hand_features as features_of_masks
from tarock.cards import CARD_BIT
from tarock.deal import CONTRACTS
from tarock.rules.rulesets import NO_DECLARER

FEATURES: tuple[str, ...] = ("taroks", "high_taroks", "tarok_points", "pagat", "mond", "skis", "kings", "voids",
                             "singletons", "card_points")
"""The dealt-hand features the model reads (``hands`` columns): what a bidder knows before the talon."""

Z95 = NormalDist().inv_cdf(0.975)
"""The two-sided 95 % normal quantile."""

MODEL_FILE = "hand_model.pkl"
ABOUT_FILE = "hand_model.json"

Group = tuple[str, int, str]
"""(ruleset, n_players, contract)."""


@dataclass
class GroupFit:
    """One contract's fit: the standardisation, the coefficients (intercept first), their covariance, and the
    declarer's mean scores of won and lost deals."""

    deals: int
    wins: int
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    covariance: np.ndarray
    score_won: float
    score_lost: float

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(probability, low, high) of a win for each row of features ``x``: the 95 % delta-method interval,
        ``logistic(η ± z·sqrt(dᵀ Σ d))`` with ``d`` the row's design vector."""
        design = np.column_stack([np.ones(len(x)), (x - self.mean) / self.scale])
        eta = design @ self.coef
        se = np.sqrt(np.einsum("ij,jk,ik->i", design, self.covariance, design))
        return logistic(eta), logistic(eta - Z95 * se), logistic(eta + Z95 * se)

    def expected_score(self, p: np.ndarray) -> np.ndarray:
        """``p · mean won score + (1 − p) · mean lost score``."""
        return p * self.score_won + (1 - p) * self.score_lost


def logistic(eta: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-eta)))


@dataclass
class HandModel:
    """The fitted groups, and what they were fitted on (``about``, saved as JSON beside the model)."""

    groups: dict[Group, GroupFit]
    counts: dict[Group, int]
    """Every contract seen, with its fitted deals (those without an estimate too)."""
    about: dict[str, Any] = field(default_factory=dict)

    def advise(self, features: dict[str, float], ruleset: str, n_players: int) -> list[dict[str, Any]]:
        """Per declared contract of the ruleset's ladder: ``contract``, ``win_probability``, ``low``, ``high``,
        ``expected_score`` (null without an estimate) and ``deals`` (what the estimate rests on); ranked by
        expected score, those without an estimate after them in ladder order."""
        x = np.array([[float(features[name]) for name in FEATURES]])
        rows = []
        for contract in CONTRACTS[ruleset]:
            if contract in NO_DECLARER:
                continue
            key = (ruleset, n_players, contract)
            fit = self.groups.get(key)
            row: dict[str, Any] = {"contract": contract, "win_probability": None, "low": None, "high": None,
                                   "expected_score": None, "deals": self.counts.get(key, 0)}
            if fit is not None:
                p, low, high = fit.predict(x)
                row.update(win_probability=float(p[0]), low=float(low[0]), high=float(high[0]),
                           expected_score=float(fit.expected_score(p)[0]))
            rows.append(row)
        rated = sorted((r for r in rows if r["win_probability"] is not None), key=lambda r: -r["expected_score"])
        return rated + [r for r in rows if r["win_probability"] is None]


def hand_features(cards: list[int]) -> dict[str, float]:
    """The ``FEATURES`` of one dealt hand (card ints), by the very code the ``hands`` table is written with
    (``ingest.hand_features``)."""
    values = features_of_masks(np.array([sum(CARD_BIT[c] for c in set(cards))], np.uint64))
    return {name: float(values[name][0]) for name in FEATURES}


def model_dir(store: str | os.PathLike[str]) -> Path:
    """Where a store's model is saved: ``<store>/models``, or ``<file>.models`` beside an exported file."""
    path = Path(store)
    return path.with_name(path.name + ".models") if path.is_file() else path / "models"


def save(model: HandModel, directory: Path) -> None:
    """The model (``MODEL_FILE``) and what it was fitted on (``ABOUT_FILE``), each written under a name of this
    process's and renamed into place: two refits at once leave whole files, the last one's (docs/store.md,
    "Writers")."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, data in ((MODEL_FILE, pickle.dumps(model)),
                       (ABOUT_FILE, (json.dumps(model.about, indent=2, sort_keys=True) + "\n").encode())):
        partial = directory / f".{name}.{os.getpid()}.tmp"
        partial.write_bytes(data)
        os.replace(partial, directory / name)


def load(directory: Path) -> HandModel | None:
    """The model saved in ``directory`` (written by ``save``: a file of this store's, trusted like the store),
    or None when there is none."""
    path = directory / MODEL_FILE
    if not path.exists():
        return None
    model = pickle.loads(path.read_bytes())
    return model if isinstance(model, HandModel) else None
