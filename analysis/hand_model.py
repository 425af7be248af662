"""What a hand is worth: P(the declarer's side wins | ruleset, players, contract, dealt hand) and the
expected score, fitted on the store's declared deals (docs/analysis.md, "What a hand is worth").

The model is one logistic regression per (ruleset, number of players, contract) over the declarer's
dealt-hand features of the ``hands`` table (``FEATURES``, standardised), chosen over one gradient-boosted
model of every contract by held-out evidence (``compare``; bench/bench_hand_model.py prints it).  A group
gets an estimate only from ``MIN_DEALS`` deals with ``MIN_OUTCOMES`` wins and as many losses; others are
listed with none.  The interval of a probability is the logistic model's own: the linear predictor's
standard error from the inverse of the penalised Fisher information at the fit (the delta method), turned
into probabilities by the logistic function, so it is cheap to compute for every contract of a hand.  The
expected score is ``p · (mean declarer score of the group's won deals) + (1 − p) · (mean of its lost
ones)``.

Held-out deals are picked by their content hash (``held_out``: a fixed fifth), so every fit and every
evaluation of the same store splits the same way.  A fitted model is saved beside the store
(``model_dir``: ``<store>/models/hand_model.joblib`` and ``hand_model.json``, which says what it was fitted
on) and refitted on demand (``fit_store``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import joblib
import numpy as np
import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.sql import Fragment, run
from analysis.stats import Z95
from analysis.store import Store
from ingest.hands import hands_columns
from ingest.schema import HANDS
from tarock.cards import CARD_BIT
from tarock.deal import CONTRACTS
from tarock.rules.rulesets import NO_DECLARER

FEATURES: tuple[str, ...] = ("taroks", "high_taroks", "tarok_points", "pagat", "mond", "skis", "kings", "voids",
                             "singletons", "card_points")
"""The dealt-hand features the model reads (``hands`` columns): what a bidder knows before the talon."""

MIN_DEALS = 200
"""Fewest held-in deals of a contract for it to get an estimate."""
MIN_OUTCOMES = 10
"""Fewest wins, and fewest losses, of a contract for it to get an estimate."""
C = 1.0
"""The logistic regressions' inverse L2 penalty (on standardised features)."""
HELD_OUT = 5
"""One deal in ``HELD_OUT`` (by content hash) is held out of the fit for the evaluation."""

Group = tuple[str, int, str]
"""(ruleset, n_players, contract)."""

_QUERY = """
SELECT d.ruleset, d.n_players, d.contract, d.content_hash, d.deal_id, d.declarer, d.won, r.score, {columns}
FROM deals d JOIN hands h ON h.content_hash = d.content_hash AND h.declarer
LEFT JOIN results r ON r.content_hash = d.content_hash AND r.player = d.declarer
WHERE {where}
ORDER BY d.content_hash
"""


def training_frame(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """The declared deals with a result and the declarer's dealt hand: one row per deal, with ``held_out``."""
    columns = ", ".join(f"h.{name}" for name in FEATURES)
    frame = run(store, _QUERY, columns=Fragment(columns), where=deal_where(filters, declared=True))
    return frame.with_columns(held_out=pl.col("content_hash").str.slice(0, 8).str.to_integer(base=16) % HELD_OUT == 0)


def feature_matrix(frame: pl.DataFrame) -> np.ndarray:
    """The ``FEATURES`` columns of ``frame`` as a float matrix, one row per deal."""
    return frame.select(pl.col(name).cast(pl.Float64) for name in FEATURES).to_numpy()


@dataclass
class GroupFit:
    """One contract's fit: the standardisation, the coefficients (intercept first), their covariance, and the
    declarer's mean scores."""

    deals: int
    wins: int
    mean: np.ndarray
    scale: np.ndarray
    coef: np.ndarray
    covariance: np.ndarray
    score_won: float
    score_lost: float

    def predict(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(probability, low, high) of a win for each row of features ``x``: 95 % delta-method interval."""
        design = np.column_stack([np.ones(len(x)), (x - self.mean) / self.scale])
        eta = design @ self.coef
        se = np.sqrt(np.einsum("ij,jk,ik->i", design, self.covariance, design))
        return _logistic(eta), _logistic(eta - Z95 * se), _logistic(eta + Z95 * se)

    def expected_score(self, p: np.ndarray) -> np.ndarray:
        return p * self.score_won + (1 - p) * self.score_lost


def _logistic(eta: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-eta)))


def _fit_group(frame: pl.DataFrame, min_deals: int) -> GroupFit | None:
    """The logistic regression of one contract's deals, or None when they are too few (``min_deals``,
    ``MIN_OUTCOMES``)."""
    from sklearn.linear_model import LogisticRegression  # here: a saved model predicts without scikit-learn

    y = frame["won"].to_numpy().astype(np.int64)
    wins = int(y.sum())
    if len(y) < min_deals or min(wins, len(y) - wins) < MIN_OUTCOMES:
        return None
    x = feature_matrix(frame)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0  # a feature constant in this contract (a Valat's declarer …): no effect
    z = (x - mean) / scale
    model = LogisticRegression(C=C, max_iter=1000).fit(z, y)
    coef = np.concatenate([model.intercept_, model.coef_[0]])
    design = np.column_stack([np.ones(len(z)), z])
    p = _logistic(design @ coef)
    # penalised Fisher information: X'WX plus the L2 penalty's 1/C on every coefficient but the intercept
    information = design.T @ (design * (p * (1 - p))[:, None]) + np.diag([0.0] + [1 / C] * len(FEATURES))
    scores = frame["score"].to_numpy()
    won = y == 1
    return GroupFit(len(y), wins, mean, scale, coef, np.linalg.inv(information),
                    _mean(scores[won]), _mean(scores[~won]))


def _mean(values: np.ndarray) -> float:
    known = values[~np.isnan(values.astype(np.float64))] if len(values) else values
    return float(known.mean()) if len(known) else 0.0


@dataclass
class HandModel:
    """The fitted groups, and what they were fitted on (``about``, saved as JSON beside the model)."""

    groups: dict[Group, GroupFit]
    counts: dict[Group, int]
    """Every contract seen, with its deals (those without an estimate too)."""
    about: dict[str, Any] = field(default_factory=dict)

    def contracts(self, ruleset: str, n_players: int) -> list[str]:
        """The declared contracts of a ruleset's ladder, lowest first (those seen in the data or not)."""
        return [c for c in CONTRACTS[ruleset] if c not in NO_DECLARER]

    def advise(self, features: dict[str, float], ruleset: str, n_players: int) -> list[dict[str, Any]]:
        """Per declared contract of the ladder: ``contract``, ``win_probability``, ``low``, ``high``,
        ``expected_score`` (null without an estimate) and ``deals`` (what the estimate rests on); ranked by
        expected score, those without an estimate last in ladder order."""
        x = np.array([[float(features[name]) for name in FEATURES]])
        rows = []
        for contract in self.contracts(ruleset, n_players):
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

    def predict_frame(self, frame: pl.DataFrame) -> pl.DataFrame:
        """``frame`` (``training_frame`` rows) with ``p`` and ``expected_score`` from its own contract's fit
        (null without an estimate)."""
        p = np.full(frame.height, np.nan)
        score = np.full(frame.height, np.nan)
        keys = frame.select("ruleset", "n_players", "contract").rows()
        x = feature_matrix(frame)
        index: dict[Group, list[int]] = {}
        for i, key in enumerate(keys):
            index.setdefault(key, []).append(i)
        for key, rows in index.items():
            fit = self.groups.get(key)
            if fit is not None:
                p[rows] = fit.predict(x[rows])[0]
                score[rows] = fit.expected_score(p[rows])
        return frame.with_columns(pl.Series("p", p).fill_nan(None), pl.Series("expected_score", score).fill_nan(None))


def fit(frame: pl.DataFrame, min_deals: int = MIN_DEALS) -> HandModel:
    """One ``GroupFit`` per contract of ``frame`` with at least ``min_deals`` deals."""
    groups: dict[Group, GroupFit] = {}
    counts: dict[Group, int] = {}
    for key, part in frame.group_by(["ruleset", "n_players", "contract"], maintain_order=True):
        group = (str(key[0]), int(key[1]), str(key[2]))
        counts[group] = part.height
        fitted = _fit_group(part, min_deals)
        if fitted is not None:
            groups[group] = fitted
    return HandModel(groups, counts)


def hand_features(cards: list[int], n_players: int = 4) -> dict[str, float]:
    """The ``FEATURES`` of one dealt hand (card ints), computed by the very code ingest uses
    (``ingest.hands.hands_columns``)."""
    mask = sum(CARD_BIT[c] for c in cards)
    _, _, columns = hands_columns([(0, -1, -1, -1, -1, mask)], 1)
    names = [f.name for f in HANDS][7:7 + len(columns)]  # the columns after player and seat_no
    values = {name: column[0].as_py() for name, column in zip(names, columns)}
    return {name: float(values[name]) for name in FEATURES}


def model_dir(source: Store | str | os.PathLike[str]) -> Path:
    """Where a store's model is saved: ``<store>/models``, or ``<file>.models`` beside an exported file."""
    path = Store.of(source).source
    return path.with_name(path.name + ".models") if path.is_file() else path / "models"


def save(model: HandModel, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    joblib.dump(model, directory / "hand_model.joblib.tmp")
    os.replace(directory / "hand_model.joblib.tmp", directory / "hand_model.joblib")
    (directory / "hand_model.json").write_text(json.dumps(model.about, indent=2, sort_keys=True) + "\n")


def load(directory: Path) -> HandModel | None:
    """The model saved in ``directory``, or None when there is none."""
    path = directory / "hand_model.joblib"
    if not path.exists():
        return None
    model = joblib.load(path)
    return model if isinstance(model, HandModel) else None


def fit_store(source: Store | str | os.PathLike[str], save_model: bool = True,
              min_deals: int = MIN_DEALS) -> HandModel:
    """Fit the model on every declared deal of the store with a dealt hand (the held-out fifth kept out),
    evaluate it on the held-out deals, and save it beside the store."""
    store = Store.of(source)
    frame = training_frame(store)
    model = fit(frame.filter(~pl.col("held_out")), min_deals)
    evaluation = evaluate(model, frame.filter(pl.col("held_out")), frame.filter(~pl.col("held_out")))
    model.about = {
        "store": str(store.source), "fitted_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "deals": frame.height, "fitted_on": int((~frame["held_out"]).sum()), "held_out": int(frame["held_out"].sum()),
        "features": list(FEATURES), "kind": "logistic regression per contract (analysis/hand_model.py)",
        "min_deals": min_deals, "current": _current(store),
        "contracts": [{"ruleset": k[0], "n_players": k[1], "contract": k[2], "deals": n,
                       "estimate": k in model.groups} for k, n in model.counts.items()],
        "evaluation": evaluation.to_dicts(),
    }
    if save_model:
        try:
            save(model, model_dir(store))
        except OSError as exc:  # a store read from a place this user cannot write: the model is used unsaved
            model.about["not_saved"] = str(exc)
    return model


def _current(store: Store) -> str | None:
    current = store.source / "CURRENT"
    return current.read_text().strip() if current.is_file() else None


def evaluate(model: HandModel, test: pl.DataFrame, train: pl.DataFrame) -> pl.DataFrame:
    """Per contract with an estimate: held-out deals, the model's Brier score and log loss, and the base
    rate's (the contract's win rate on the fitted deals, for every hand)."""
    from sklearn.metrics import brier_score_loss, log_loss

    predicted = model.predict_frame(test).filter(pl.col("p").is_not_null())
    base = train.group_by("ruleset", "n_players", "contract").agg(base=pl.col("won").cast(pl.Float64).mean())
    joined = predicted.join(base, on=["ruleset", "n_players", "contract"], how="left")
    rows = []
    for key, part in joined.group_by(["ruleset", "n_players", "contract"], maintain_order=True):
        y = part["won"].to_numpy().astype(np.int64)
        p = part["p"].to_numpy()
        b = part["base"].to_numpy()
        rows.append({"ruleset": key[0], "n_players": key[1], "contract": key[2], "held_out": part.height,
                     "brier": float(brier_score_loss(y, p)), "brier_base": float(brier_score_loss(y, b)),
                     "log_loss": float(log_loss(y, p, labels=[0, 1])),
                     "log_loss_base": float(log_loss(y, b, labels=[0, 1]))})
    return pl.DataFrame(rows, schema={"ruleset": pl.String, "n_players": pl.Int64, "contract": pl.String,
                                      "held_out": pl.Int64, "brier": pl.Float64, "brier_base": pl.Float64,
                                      "log_loss": pl.Float64, "log_loss_base": pl.Float64})


def reliability(model: HandModel, test: pl.DataFrame, bins: int = 10) -> pl.DataFrame:
    """The reliability diagram's bins over the held-out deals: per tenth of predicted probability, the deals,
    the mean prediction and the observed win rate."""
    predicted = model.predict_frame(test).filter(pl.col("p").is_not_null())
    return (predicted.with_columns(bin=(pl.col("p") * bins).floor().clip(0, bins - 1).cast(pl.Int64))
            .group_by("bin").agg(deals=pl.len(), mean_predicted=pl.col("p").mean(),
                                 observed=pl.col("won").cast(pl.Float64).mean())
            .sort("bin").with_columns(low=pl.col("bin") / bins, high=(pl.col("bin") + 1) / bins))


def compare(frame: pl.DataFrame) -> pl.DataFrame:
    """Held-out Brier score and log loss, per contract with an estimate, of the logistic regressions, of one
    gradient-boosted model of all contracts (scikit-learn's HistGradientBoostingClassifier, the contract,
    ruleset and players as categories beside the same features), and of the base rate: the evidence for
    the choice of model."""
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.metrics import brier_score_loss, log_loss

    train, test = frame.filter(~pl.col("held_out")), frame.filter(pl.col("held_out"))
    model = fit(train)
    logistic = evaluate(model, test, train)
    keys = ["ruleset", "n_players", "contract"]
    codes = {key: i for i, key in enumerate(train.select(keys).unique(maintain_order=True).rows())}

    def design(part: pl.DataFrame) -> np.ndarray:
        group = np.array([codes.get(key, -1) for key in part.select(keys).rows()], np.float64)
        return np.column_stack([group, feature_matrix(part)])

    boosted = HistGradientBoostingClassifier(categorical_features=[0], max_iter=300, learning_rate=0.05,
                                             early_stopping=True, random_state=0)
    boosted.fit(design(train), train["won"].to_numpy().astype(np.int64))
    p = boosted.predict_proba(design(test))[:, 1]
    scored = test.with_columns(pl.Series("p_boosted", p))
    rows = []
    for key, part in scored.group_by(keys, maintain_order=True):
        y = part["won"].to_numpy().astype(np.int64)
        rows.append({"ruleset": key[0], "n_players": key[1], "contract": key[2],
                     "brier_boosted": float(brier_score_loss(y, part["p_boosted"].to_numpy())),
                     "log_loss_boosted": float(log_loss(y, part["p_boosted"].to_numpy(), labels=[0, 1]))})
    return logistic.join(pl.DataFrame(rows), on=keys, how="left")

