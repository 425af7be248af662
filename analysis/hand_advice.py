"""Per contract a hand may bid: its play-outs beside the club's estimate (docs/analysis.md, "What a hand is worth").

Two figures, each with what it rests on:

- **Play-outs** (``tarock.sim.playouts``, ``tarock.sim.koenigrufen_playouts``): the simulator's players deal the unseen cards around the hand and play
  the contract out, a few hundred times: the win rate with its 95 % Wilson interval, the mean score, how many
  play-outs.  There is one for every contract the table may declare, whatever the store holds.
- **The club's estimate**: the hand model's (``analysis.hand_model``, fitted on the store's declared deals)
  shrunk toward the play-outs by how many of the store's declarers held a hand like this one in that contract
  (``analysis.similar_hands``): with ``m`` such deals the weight of the store is ``m / (m + PRIOR_DEALS)``.
  Where the contract has no fitted model the store's part is the record of those deals itself; with none,
  the club's estimate is the play-outs'.  So an extreme hand, which the model only extrapolates to, reads
  the play-outs; a common one, the club's own deals.  The interval is the same mixture of the two intervals'
  ends, the expected score of the two scores.

``hand_advice`` gives one row per contract, ranked by the club's expected score; ``PLAYOUT_SEED`` fixes the
play-outs, so the same hand always gets the same figures.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from analysis.hand_model import HandModel, hand_features
from tarock.cards import CARD_BIT
from tarock.sim import koenigrufen_playouts
from tarock.sim.playouts import Estimate, estimates, wilson

PRIOR_DEALS = 50
"""How many deals of hands like this one the store needs for its figure to weigh as much as the play-outs'."""
PLAYOUT_SEED = 37
"""The seed of every advice's play-outs (``tarock.sim.playouts.estimate``)."""
PLAYOUT_RULESETS = frozenset({"slovenian", "koenigrufen"})
"""The rulesets the simulator plays out a hand in."""


def playout_estimates(cards: list[int], ruleset: str, n_players: int, seed: int = PLAYOUT_SEED) -> dict[str, Estimate]:
    """The play-outs of every contract the hand may declare at the table, by name (none for a ruleset the simulator
    does not play out)."""
    hand = sum(CARD_BIT[c] for c in set(cards))
    if ruleset == "koenigrufen":
        found = koenigrufen_playouts.estimates(hand, seed)
    elif ruleset in PLAYOUT_RULESETS:
        found = estimates(hand, n_players, seed)
    else:
        return {}
    return {estimate.contract: estimate for estimate in found}


def _playout_part(found: Estimate | None) -> dict[str, Any] | None:
    """A contract's play-outs as the row shows them (None without play-outs)."""
    if found is None:
        return None
    low, high = found.interval
    return {"win_probability": found.win_probability, "low": low, "high": high,
            "expected_score": found.expected_score, "playouts": found.playouts}


def _record_part(row: dict[str, Any] | None) -> dict[str, Any]:
    """A contract's stored hands like this one as the row shows them: the counts, the win rate with its Wilson
    interval and the mean score (null without a deal)."""
    if row is None or not row["deals"]:
        return {"deals": 0, "wins": 0, "win_rate": None, "low": None, "high": None, "mean_score": None}
    low, high = wilson(row["wins"], row["deals"])
    return {"deals": row["deals"], "wins": row["wins"], "win_rate": row["wins"] / row["deals"], "low": low,
            "high": high, "mean_score": row["mean_score"]}


def _club(model_row: dict[str, Any], record: dict[str, Any], playout: dict[str, Any] | None
          ) -> dict[str, Any] | None:
    """The store's figure for the contract (the model's where it has one, else the record of hands like this
    one) shrunk toward the play-outs by ``weight = m / (m + PRIOR_DEALS)``, ``m`` the record's deals; the
    play-outs' alone (weight 0) without a store figure, the store's alone (weight 1) without play-outs, None
    without either."""
    keys = ("win_probability", "low", "high", "expected_score")
    store: dict[str, Any] | None = None
    if model_row["win_probability"] is not None:
        store = {key: model_row[key] for key in keys}
    elif record["deals"]:
        store = {"win_probability": record["win_rate"], "low": record["low"], "high": record["high"],
                 "expected_score": record["mean_score"]}
    if playout is None:
        return None if store is None else store | {"weight": 1.0}
    if store is None:
        return {key: playout[key] for key in keys} | {"weight": 0.0}
    if store["expected_score"] is None:  # deals without a result row: the score is the play-outs'
        store["expected_score"] = playout["expected_score"]
    weight = record["deals"] / (record["deals"] + PRIOR_DEALS)
    return {key: weight * store[key] + (1 - weight) * playout[key] for key in keys} | {"weight": weight}


def hand_advice(model: HandModel, cards: list[int], ruleset: str, n_players: int, similar: pl.DataFrame,
                seed: int = PLAYOUT_SEED) -> list[dict[str, Any]]:
    """Per contract the table may declare: ``contract``, ``playouts`` (win probability, interval, expected score,
    play-outs; null where the simulator does not play the ruleset), ``record`` (the store's deals of hands like
    this one: deals, wins, win rate with its interval, mean score), ``model`` (the hand model's row:
    ``HandModel.advise``) and ``club`` (the model shrunk toward the play-outs, with the store's ``weight``);
    ranked by the club's expected score, contracts with no figure at all (no play-outs, no store) last."""
    model_rows = {row["contract"]: row for row in model.advise(hand_features(cards), ruleset, n_players)}
    playouts = playout_estimates(cards, ruleset, n_players, seed)
    records = {row["contract"]: row for row in similar.iter_rows(named=True)}
    rows = []
    for contract, model_row in model_rows.items():
        if ruleset in PLAYOUT_RULESETS and contract not in playouts:  # not this hand's to declare at this table
            # (3 players' solos; Königrufen's king games with all four kings, a Besserrufer without a bird)
            continue
        playout = _playout_part(playouts.get(contract))
        record = _record_part(records.get(contract))
        rows.append({"contract": contract, "playouts": playout, "record": record, "model": model_row,
                     "club": _club(model_row, record, playout)})
    rated = sorted((r for r in rows if r["club"] is not None and r["club"]["expected_score"] is not None),
                   key=lambda r: -r["club"]["expected_score"])
    return rated + [r for r in rows if r not in rated]
