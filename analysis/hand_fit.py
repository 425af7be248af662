"""Fitting and evaluating the hand model (``analysis.hand_model``) on the store's declared deals.

The model is one logistic regression per (ruleset, number of players, contract) over the declarer's
dealt-hand features of the ``hands`` table (``hand_model.FEATURES``, standardised), chosen over one
gradient-boosted model of every contract by held-out evidence (``compare``; bench/bench_hand_model.py prints
it).  A contract gets an estimate only from ``MIN_DEALS`` deals with ``MIN_OUTCOMES`` wins and as many
losses.  The interval of a prediction is the logistic model's own: the coefficients' covariance is the
inverse of the penalised Fisher information at the fit (``GroupFit.predict`` applies the delta method).

Held-out deals are picked by their content hash (a fixed fifth: ``HELD_OUT``), so every fit and every
evaluation of the same store splits the same way.  ``fit_store`` fits on the rest, evaluates on them and
saves the model beside the store (``hand_model.model_dir``) with what it was fitted on.  scikit-learn is
imported by the functions that fit.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime

import numpy as np
import polars as pl

from analysis.filters import NO_FILTERS, Filters, deal_where
from analysis.hand_model import FEATURES, Group, GroupFit, HandModel, logistic, model_dir, save
from analysis.sql import Fragment, run
from analysis.store import Store

MIN_DEALS = 200
"""Fewest held-in deals of a contract for it to get an estimate."""
MIN_OUTCOMES = 10
"""Fewest wins, and fewest losses, of a contract for it to get an estimate."""
CS = (0.001, 0.01, 0.1, 1.0, 10.0)
"""The inverse L2 penalties (on standardised features) a contract's regression chooses from, by the Brier score
of a 5-fold cross-validation on its fitted deals: a contract whose hands say little (a Piccolo's) takes a strong
penalty and stays near its base rate instead of fitting noise."""
HELD_OUT = 5
"""One deal in ``HELD_OUT`` (by content hash) is held out of the fit for the evaluation."""

_QUERY = """
SELECT d.ruleset, d.n_players, d.contract, d.content_hash, d.deal_id, d.declarer, d.won, r.score, {columns}
FROM deals d JOIN stored.hands h ON h.shard = d.shard AND h.source_file = d.source_file
    AND h.source_pos = d.source_pos AND h.declarer
LEFT JOIN stored.results r ON r.shard = d.shard AND r.source_file = d.source_file
    AND r.source_pos = d.source_pos AND r.player = d.declarer
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


def _fit_group(frame: pl.DataFrame, min_deals: int) -> GroupFit | None:
    """The logistic regression of one contract's deals, or None when they are too few (``min_deals``,
    ``MIN_OUTCOMES``)."""
    # here: a saved model predicts without scikit-learn
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score

    y = frame["won"].to_numpy().astype(np.int64)
    wins = int(y.sum())
    if len(y) < min_deals or min(wins, len(y) - wins) < MIN_OUTCOMES:
        return None
    x = feature_matrix(frame)
    mean, scale = x.mean(axis=0), x.std(axis=0)
    scale[scale == 0] = 1.0  # a feature constant in this contract (a Valat's declarer …): no effect
    z = (x - mean) / scale
    # the penalty of the best cross-validated Brier score (stratified folds in order: the same fit every time)
    c = max(CS, key=lambda c: cross_val_score(LogisticRegression(C=c, max_iter=1000), z, y, cv=5,
                                              scoring="neg_brier_score").mean())
    model = LogisticRegression(C=c, max_iter=1000).fit(z, y)
    coef = np.concatenate([model.intercept_, model.coef_[0]])
    design = np.column_stack([np.ones(len(z)), z])
    p = logistic(design @ coef)
    # penalised Fisher information: X'WX plus the L2 penalty's 1/C on every coefficient but the intercept
    information = design.T @ (design * (p * (1 - p))[:, None]) + np.diag([0.0] + [1 / c] * len(FEATURES))
    scores = frame["score"].to_numpy()
    won = y == 1
    return GroupFit(len(y), wins, mean, scale, coef, np.linalg.inv(information),
                    _mean(scores[won]), _mean(scores[~won]))


def _mean(values: np.ndarray) -> float:
    known = values[~np.isnan(values.astype(np.float64))] if len(values) else values
    return float(known.mean()) if len(known) else 0.0


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


def fit_store(source: Store | str | os.PathLike[str], save_model: bool = True,
              min_deals: int = MIN_DEALS) -> HandModel:
    """Fit the model on every declared deal of the store with a dealt hand (the held-out fifth kept out),
    evaluate it on the held-out deals, and save it beside the store."""
    with Store.opened(source) as store:
        frame = training_frame(store)
    model = fit(frame.filter(~pl.col("held_out")), min_deals)
    evaluation = evaluate(model, frame.filter(pl.col("held_out")), frame.filter(~pl.col("held_out")))
    model.about = {
        "store": str(store.source), "fitted_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "deals": frame.height, "fitted_on": int((~frame["held_out"]).sum()), "held_out": int(frame["held_out"].sum()),
        "features": list(FEATURES), "kind": "logistic regression per contract (analysis/hand_fit.py)",
        "min_deals": min_deals, "current": _current(store),
        "contracts": [{"ruleset": k[0], "n_players": k[1], "contract": k[2], "deals": n,
                       "estimate": k in model.groups} for k, n in model.counts.items()],
        "evaluation": evaluation.to_dicts(),
    }
    if save_model:
        try:
            save(model, model_dir(store.source))
        except OSError as exc:  # a store read from a place this user cannot write: the model is used unsaved
            model.about["not_saved"] = str(exc)
    return model


def _current(store: Store) -> str | None:
    current = store.source / "CURRENT"
    return current.read_text().strip() if current.is_file() else None


def predict_frame(model: HandModel, frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (``training_frame`` rows) with ``p`` and ``expected_score`` from its own contract's fit (null
    without an estimate)."""
    p = np.full(frame.height, np.nan)
    score = np.full(frame.height, np.nan)
    x = feature_matrix(frame)
    index: dict[Group, list[int]] = {}
    for i, key in enumerate(frame.select("ruleset", "n_players", "contract").rows()):
        index.setdefault(key, []).append(i)
    for key, rows in index.items():
        fit = model.groups.get(key)
        if fit is not None:
            p[rows] = fit.predict(x[rows])[0]
            score[rows] = fit.expected_score(p[rows])
    return frame.with_columns(pl.Series("p", p).fill_nan(None), pl.Series("expected_score", score).fill_nan(None))


def evaluate(model: HandModel, test: pl.DataFrame, train: pl.DataFrame) -> pl.DataFrame:
    """Per contract with an estimate: held-out deals, the model's Brier score and log loss, and the base
    rate's (the contract's win rate on the fitted deals, for every hand)."""
    from sklearn.metrics import brier_score_loss, log_loss

    predicted = predict_frame(model, test).filter(pl.col("p").is_not_null())
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
    predicted = predict_frame(model, test).filter(pl.col("p").is_not_null())
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

