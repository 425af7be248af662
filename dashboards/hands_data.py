"""The Hands page's door to the hand model (``analysis.hand_model``): the model of the current store, cached.

Beside ``dashboards.data``, which it shares the store handle and path with: the model is a resource (fitted
once per store and process when none is saved beside the store, then read from there), and the review of
the bids is cached data keyed by the store path, the filters and when the model was fitted.  Both are kept
while the store's content is the same (``dashboards.data.store_content``), with no time limit: a later
visit finds them (issue 38: the page took seconds again once a time limit had passed).
"""

from __future__ import annotations

import polars as pl
import streamlit as st

from analysis import bid_review, hand_fit, hand_model
from analysis import advise
from analysis.advise import about_lines, hand_of_deal, parse_hand
from analysis.filters import Filters
from analysis.hand_model import HandModel
from dashboards.data import _store, store_content, store_path
from dashboards.pages import uploads_enabled

__all__ = ["about_lines", "advice", "bids", "can_refit", "model", "parse_hand", "refit", "stored_hand", "stored_hands"]


@st.cache_resource(max_entries=4, show_spinner="Reading the hand model of the store (fitting it the first "
                                              "time, which takes a few seconds) …")
def _model(path: str, content: str, write: bool) -> HandModel:
    saved = hand_model.load(hand_model.model_dir(path))
    return saved if saved is not None else hand_fit.fit_store(_store(path), save_model=write)


def model() -> HandModel:
    """The hand model of the current store: the one saved beside it, else fitted now (and saved, unless the
    server is read-only: ``can_refit``)."""
    path = store_path()
    return _model(path, store_content(path), can_refit())


def can_refit() -> bool:
    """Whether this server may write the model beside the store (a read-only one writes nothing)."""
    return uploads_enabled()


def refit() -> None:
    """Fit the model on the store again (the page's button, offered where ``can_refit``) and forget the reviews
    of the old one."""
    if not can_refit():
        return
    hand_fit.fit_store(_store(store_path()))
    _model.clear()
    _bids.clear()
    _advice.clear()


@st.cache_data(max_entries=16, show_spinner="Setting every declarer's bid against the model (the first time "
                                           "only) …")
def _bids(path: str, content: str, filters: Filters, fitted_at: str) -> pl.DataFrame:
    return bid_review.bid_review(_store(path), _model(path, content, can_refit()), filters)


def bids(filters: Filters) -> pl.DataFrame:
    """``analysis.bid_review.bid_review`` of the deals the filters keep."""
    path = store_path()
    return _bids(path, store_content(path), filters, str(model().about.get("fitted_at")))


@st.cache_data(max_entries=4, show_spinner=False)
def _stored_hands(path: str, content: str, limit: int) -> pl.DataFrame:
    return _store(path).query("SELECT d.deal_id, h.player, d.ruleset, d.n_players FROM deals d JOIN stored.hands h "
                              "USING (shard, source_file, source_pos) "
                              "WHERE h.declarer ORDER BY d.deal_id LIMIT $limit", {"limit": limit})


def stored_hands(limit: int = 500) -> pl.DataFrame:
    """Declarers' hands to pick from: (deal_id, player, ruleset, n_players), the first ``limit`` deals by id."""
    path = store_path()
    return _stored_hands(path, store_content(path), limit)


def stored_hand(deal_id: str, player: str) -> tuple[list[int], str, int]:
    """(cards, ruleset, players) of a player's dealt hand in a stored deal (``analysis.advise.hand_of_deal``)."""
    return hand_of_deal(_store(store_path()), deal_id, player)


@st.cache_data(max_entries=32, show_spinner="Playing the hand out, every contract a few hundred times (the first "
                                           "time only) …")
def _advice(path: str, content: str, fitted_at: str, cards: tuple[int, ...], ruleset: str, n_players: int,
            _fitted: HandModel) -> pl.DataFrame:
    rows = advise.advice(_store(path), _fitted, list(cards), ruleset, n_players)
    flat = []
    for row in rows:
        playouts, club, record = row["playouts"] or {}, row["club"] or {}, row["record"]
        flat.append({"contract": row["contract"],
                     **{f"po_{key}": playouts.get(key) for key in ("win_probability", "low", "high",
                                                                   "expected_score", "playouts")},
                     **{f"club_{key}": club.get(key) for key in ("win_probability", "low", "high",
                                                                 "expected_score", "weight")},
                     "like_deals": record["deals"], "like_wins": record["wins"]})
    return pl.DataFrame(flat, schema={"contract": pl.String, "po_win_probability": pl.Float64, "po_low": pl.Float64,
                                      "po_high": pl.Float64, "po_expected_score": pl.Float64,
                                      "po_playouts": pl.Int64, "club_win_probability": pl.Float64,
                                      "club_low": pl.Float64, "club_high": pl.Float64,
                                      "club_expected_score": pl.Float64, "club_weight": pl.Float64,
                                      "like_deals": pl.Int64, "like_wins": pl.Int64})


def advice(fitted: HandModel, cards: list[int], ruleset: str, n_players: int) -> pl.DataFrame:
    """``analysis.advise.advice`` on the current store, flat: per contract the play-outs' columns (``po_``), the
    club's (``club_``) and the store's hands like this one (``like_deals``, ``like_wins``), ranked as there; kept
    while the store and the model are the same (the play-outs are seeded: the same hand, the same figures)."""
    path = store_path()
    return _advice(path, store_content(path), str(fitted.about.get("fitted_at")), tuple(sorted(cards)), ruleset,
                   n_players, fitted)
