"""The dashboard's only door to the data: cached wrappers around the ``analysis`` questions.

* The ``Store`` (one shared DuckDB database per store path) is a cached
  resource; every query takes its own cursor from it (``Store.connect``),
  since one DuckDB connection must not serve several threads at once.
* Every answer is cached data keyed by the store path and the filters
  (Streamlit's data cache is process-wide, so the path must be part of the
  key, or two stores would share answers).  Answers live ``TTL``, after
  which shards ingested meanwhile (by ``tarock ingest``) show up; an upload
  through the Ingest page clears the caches at once (``forget_store``).

Pages call the public functions, which add the current store path, and
take ``Filters`` from here too.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import date
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import polars as pl
import streamlit as st

from analysis import (accuracy, audit, calendar, card_losses, deals, luck, misplays, outcomes, overview, partnerships,
                      players, ratings, sessions, uploads, whatif, win_rates)
from analysis.deals import DealDetail
from analysis.filters import Filters
from analysis.stats import with_rate
from analysis.store import Store
from dashboards.pages import uploads_enabled
from dashboards.replay_model import DealReplay, build_replay
from ingest.layout import StoreLayout
from tarock.check.audit import CODE as SCORE_MISMATCH
from tarock.deal import RULESETS
from tarock.findings import Finding

DEFAULT_STORE = Path("data/store")
TTL = "10m"
"""How long a cached answer (and the open store) is kept."""
BREAKDOWNS = (("contract",), ("contract", "seat"), ("contract", "declarer"), ("contract", "month"), ("declarer",))
"""The win-rate groupings the pages show (warmed up front)."""
FINDINGS_LISTED = 500
"""Most findings one list shows."""
DEALS_LISTED = 200
"""Most deals one search offers."""


def store_path() -> str:
    """The store directory: ``$TAROCK_STORE`` (set by ``tarock dashboard --store``), else ``data/store``."""
    return str(Path(os.environ.get("TAROCK_STORE") or DEFAULT_STORE))


@st.cache_resource(ttl=TTL, max_entries=4, show_spinner=False)
def _store(path: str) -> Store:
    return Store(path)


def store_content(path: str) -> str:
    """What the store at ``path`` holds, as a short id that changes with every ingest: a store directory's
    ``StoreLayout.content_id`` (a ``listdir``), an exported file's size and time.  The slow answers (the
    What-if's rescoring, the hand model and its review of the bids) are cached under it with no time limit:
    the same store opens them from the cache however long ago they were computed, and new deals, from an
    upload or a ``tarock ingest`` beside the server, key new answers (issue 38: under 2 s after a first visit)."""
    if Path(path).is_dir():
        return StoreLayout.at(path).content_id() or "empty"
    try:
        stat = os.stat(path)
    except OSError:
        return "missing"
    return f"{stat.st_size}-{stat.st_mtime_ns}"


def forget_store() -> None:
    """Drop every cached answer and reopen the store (after an upload added shards)."""
    st.cache_data.clear()
    _store.clear()
    with _warm_lock:
        _warmed.discard(store_path())


_warmed: set[str] = set()
_warm_lock = threading.Lock()


def warm_up() -> None:
    """Answer every page's unfiltered questions in a background thread, once per store and process.

    Called after the first page is drawn, so that page never waits for it;
    on a store of a million deals a page's first answers take seconds, and
    then the other pages open from the cache.  ``TAROCK_DASHBOARD_WARMUP=0``
    turns it off (the page benchmark measures cold answers).
    """
    if os.environ.get("TAROCK_DASHBOARD_WARMUP") == "0":
        return
    path = store_path()
    with _warm_lock:
        if path in _warmed:
            return
        _warmed.add(path)
    threading.Thread(target=_warm, args=(path,), name="tarock-warm-up", daemon=True).start()


def _warm(path: str) -> None:
    everything = Filters()
    questions: list[Callable[[], object]] = [
        lambda: _filter_choices(path),
        *(partial(_win_rates, path, everything, by) for by in BREAKDOWNS),
        partial(_outcomes, path, everything),
        partial(_players, path, everything),
        partial(_luck, path, everything),
        partial(_ratings, path, everything),
        partial(_partners, path, everything),
        partial(_accuracy, path, everything),
        partial(_disputes, path, everything),
        partial(_renons, path, everything, "code"),
        partial(_renons, path, everything, "player"),
        partial(_findings, path, everything, "renons", None, FINDINGS_LISTED),
        partial(_find_deals, path, everything, None, None, DEALS_LISTED),
    ]
    for ask in questions:
        try:
            ask()
        except Exception:
            logging.getLogger(__name__).warning("warming the dashboard's cache stopped", exc_info=True)
            return


_AHEAD = ThreadPoolExecutor(max_workers=2, thread_name_prefix="tarock-ahead")


def ask_ahead(*questions: Callable[[], object]) -> None:
    """Start a page's independent questions now, two at a time, and return at once.

    A cold page asked them one after the other and waited for their sum; now the page's own calls find
    them answered, or wait for the one thread computing each (Streamlit computes a cached value once per
    key).  A question that fails here is asked again by the page, which shows the error.
    """
    for ask in questions:
        _AHEAD.submit(ask)


# -- headline and sidebar ------------------------------------------------------------------------------------
@st.cache_data(ttl=TTL, show_spinner=False)
def _overview(path: str, filters: Filters) -> dict[str, Any]:
    return overview.overview(_store(path), filters).row(0, named=True)


def headline(filters: Filters) -> dict[str, Any]:
    """The headline figures (``analysis.overview``) as one dict: deals by status, sessions, players, …"""
    return _overview(store_path(), filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _span(path: str, filters: Filters) -> dict[str, Any]:
    return overview.span(_store(path), filters).row(0, named=True)


def deal_count(filters: Filters) -> int:
    """How many deals the filters keep (``analysis.overview.span``: cheaper than the whole ``headline``)."""
    return int(_span(store_path(), filters)["deals"])


def ruleset_count(filters: Filters) -> int:
    """How many rulesets the deals the filters keep are of (``analysis.overview.span``, which ``deal_count``
    has asked already)."""
    return int(_span(store_path(), filters)["rulesets"])


@dataclass(frozen=True, slots=True)
class FilterChoices:
    """What the sidebar offers: the rulesets, the players present and the range of deal dates."""

    rulesets: tuple[str, ...]
    players: tuple[str, ...]
    first_date: date | None
    last_date: date | None


@st.cache_data(ttl=TTL, show_spinner=False)
def _filter_choices(path: str) -> FilterChoices:
    ask_ahead(partial(_span, path, Filters()))  # beside the names: every cold page waits for the sidebar
    names = players.player_names(_store(path))["player"]
    span = _span(path, Filters())
    return FilterChoices(RULESETS, tuple(names), span["date_from"], span["date_to"])


def filter_choices() -> FilterChoices:
    """The sidebar's options for the current store."""
    return _filter_choices(store_path())


# -- contracts -----------------------------------------------------------------------------------------------
@st.cache_data(ttl=TTL, show_spinner=False)
def _win_rates(path: str, filters: Filters, by: tuple[str, ...]) -> pl.DataFrame:
    return win_rates.win_rates(_store(path), filters, by)


def contract_win_rates(filters: Filters, by: tuple[str, ...] = ("contract",)) -> pl.DataFrame:
    """Declared contracts' win rates with Wilson intervals, grouped by ``by`` (``analysis.win_rates``)."""
    return _win_rates(store_path(), filters, by)


def monthly_win_rates(by_contract_and_month: pl.DataFrame) -> pl.DataFrame:
    """Every contract together per month, with its Wilson interval, from the contract × month rates."""
    monthly = by_contract_and_month.group_by("month").agg(pl.col("deals").sum(), pl.col("wins").sum())
    return with_rate(monthly.sort("month"), "wins", "deals", "win_rate")


@st.cache_data(ttl=TTL, show_spinner=False)
def _outcomes(path: str, filters: Filters) -> pl.DataFrame:
    return outcomes.outcomes(_store(path), filters)


def contract_outcomes(filters: Filters) -> pl.DataFrame:
    """Per contract: average declarer score and card points, close games (``analysis.outcomes``)."""
    return _outcomes(store_path(), filters)


# -- players -------------------------------------------------------------------------------------------------
@st.cache_data(ttl=TTL, show_spinner=False)
def _players(path: str, filters: Filters) -> pl.DataFrame:
    return players.players(_store(path), filters)


def player_table(filters: Filters) -> pl.DataFrame:
    """One row per player (``analysis.players.players``)."""
    return _players(store_path(), filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _ratings(path: str, filters: Filters) -> pl.DataFrame:
    return ratings.current(_store(path), filters)


def player_ratings(filters: Filters) -> pl.DataFrame:
    """Each player's current rating per pool (``analysis.ratings.current``); empty until ratings are built."""
    return _ratings(store_path(), filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _rating_history(path: str, names: tuple[str, ...], filters: Filters) -> pl.DataFrame:
    return ratings.history(_store(path), list(names), filters)


def rating_history(names: tuple[str, ...], filters: Filters) -> pl.DataFrame:
    """These players' rating after each of their deals (``analysis.ratings.history``)."""
    return _rating_history(store_path(), names, filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _calendar(path: str, player: str, filters: Filters) -> pl.DataFrame:
    return calendar.calendar(_store(path), player, filters)


def player_calendar(player: str, filters: Filters) -> pl.DataFrame:
    """The player's net score per day (``analysis.calendar.calendar``)."""
    return _calendar(store_path(), player, filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _roles(path: str, filters: Filters) -> pl.DataFrame:
    return partnerships.roles(_store(path), filters)


def player_roles(filters: Filters) -> pl.DataFrame:
    """Win rate and mean score per player, role and contract (``analysis.partnerships.roles``)."""
    return _roles(store_path(), filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _partners(path: str, filters: Filters) -> pl.DataFrame:
    return partnerships.partners(_store(path), filters)


def partner_pairs(filters: Filters) -> pl.DataFrame:
    """How each declarer-partner pair does together (``analysis.partnerships.partners``)."""
    return _partners(store_path(), filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _luck(path: str, filters: Filters) -> pl.DataFrame:
    return luck.luck(_store(path), filters)


def strong_hands(filters: Filters) -> pl.DataFrame:
    """Each player's share of strong dealt hands (``analysis.luck.luck``)."""
    return _luck(store_path(), filters)


@dataclass(frozen=True, slots=True)
class Accuracy:
    """The solver's verdict on a selection: whether the store has it, how much of it, and the figures."""

    available: bool
    deals: int
    analysed: int
    players: pl.DataFrame
    biggest: pl.DataFrame


@st.cache_data(ttl=TTL, show_spinner=False)
def _accuracy(path: str, filters: Filters) -> Accuracy:
    store = _store(path)
    if not accuracy.available(store):
        return Accuracy(False, 0, 0, pl.DataFrame(), pl.DataFrame())
    total, analysed = accuracy.coverage(store, filters)
    return Accuracy(True, total, analysed, accuracy.accuracy(store, filters), accuracy.biggest_losses(store, filters))


def play_accuracy(filters: Filters) -> Accuracy:
    """Point loss per player from the double-dummy analysis, when the store has one (``analysis.accuracy``)."""
    return _accuracy(store_path(), filters)


# -- audit ---------------------------------------------------------------------------------------------------
@st.cache_data(ttl=TTL, show_spinner=False)
def _disputes(path: str, filters: Filters) -> pl.DataFrame:
    return audit.disputes(_store(path), filters)


def disputes(filters: Filters) -> pl.DataFrame:
    """Disputed scores with their explaining message (``analysis.audit.disputes``)."""
    return _disputes(store_path(), filters)


@st.cache_data(ttl=TTL, show_spinner=False)
def _renons(path: str, filters: Filters, by: str) -> pl.DataFrame:
    return audit.renons(_store(path), filters, by)


def renons_counts(filters: Filters, by: str) -> pl.DataFrame:
    """Renons counted by ``code``, ``player`` or ``trick`` (``analysis.audit.renons``)."""
    return _renons(store_path(), filters, by)


@st.cache_data(ttl=TTL, show_spinner=False)
def _findings(path: str, filters: Filters, severity: str, code: str | None, limit: int) -> pl.DataFrame:
    return audit.findings(_store(path), filters, severity, code, limit)


def findings(filters: Filters, severity: str = "renons", code: str | None = None,
             limit: int = FINDINGS_LISTED) -> pl.DataFrame:
    """Findings of one severity (one code) with their deal, trick and sentence, newest deals first."""
    return _findings(store_path(), filters, severity, code, limit)


@st.cache_data(ttl=TTL, show_spinner=False)
def _rejects(path: str) -> pl.DataFrame:
    return audit.rejects(_store(path))


def rejects() -> pl.DataFrame:
    """Rejected input by reason (``analysis.audit.rejects``)."""
    return _rejects(store_path())


@dataclass(frozen=True, slots=True)
class Misplays:
    """The misplays that decided a game in a selection (``analysis.misplays``): whether the store has verdicts,
    how many deals of the selection were judged, each misplay with its sentence, and each player's count."""

    available: bool
    deals: int
    judged: int
    listed: pl.DataFrame
    players: pl.DataFrame


@st.cache_data(ttl=TTL, show_spinner=False)
def _misplays(path: str, filters: Filters) -> Misplays:
    store = _store(path)
    total, judged = misplays.coverage(store, filters)
    if not misplays.available(store):
        return Misplays(False, total, 0, pl.DataFrame(), pl.DataFrame())
    return Misplays(True, total, judged, misplays.misplays(store, filters), misplays.per_player(store, filters))


def game_misplays(filters: Filters) -> Misplays:
    """The cards that decided a game, per the solver's verdicts stored by ``tarock analyse --store``."""
    return _misplays(store_path(), filters)


# -- replay --------------------------------------------------------------------------------------------------
@st.cache_data(ttl=TTL, show_spinner=False)
def _find_deals(path: str, filters: Filters, id_prefix: str | None, session: str | None,
                limit: int) -> pl.DataFrame:
    return deals.find_deals(_store(path), filters, id_prefix, session, limit)


def find_deals(filters: Filters, id_prefix: str | None = None, session: str | None = None,
               limit: int = DEALS_LISTED) -> pl.DataFrame:
    """Deals matching the filters, an id prefix and a session, newest first (``analysis.deals.find_deals``)."""
    return _find_deals(store_path(), filters, id_prefix or None, session or None, limit)


@st.cache_data(ttl=TTL, show_spinner=False, max_entries=256)
def _deal_detail(path: str, deal_id: str) -> DealDetail | None:
    return deals.deal_detail(_store(path), deal_id)


def deal_detail(deal_id: str) -> DealDetail | None:
    """Everything stored about one deal, or None when the store has no deal with that id."""
    return _deal_detail(store_path(), deal_id)


@st.cache_data(ttl=TTL, show_spinner=False, max_entries=256)
def _deal_replay(path: str, deal_id: str) -> DealReplay | None:
    detail = _deal_detail(path, deal_id)
    if detail is None or not detail.record:
        return None
    options = orjson.loads(detail.deal["options_json"]) if detail.deal.get("options_json") else None
    audit_rows = detail.findings.filter(pl.col("code") == SCORE_MISMATCH).iter_rows(named=True)
    audited = [Finding(row["code"], row["message"], player=row["player"]) for row in audit_rows]
    audited += misplays.deal_findings(_store(path), deal_id)  # the solver's verdicts: on their trick's step
    return build_replay(orjson.dumps(detail.record), options, audited)


def deal_replay(deal_id: str) -> DealReplay | None:
    """The replay viewer's steps for a stored deal (its canonical record replayed by the engine)."""
    return _deal_replay(store_path(), deal_id)


@st.cache_data(ttl=TTL, show_spinner=False, max_entries=256)
def _deal_losses(path: str, deal_id: str) -> pl.DataFrame:
    return card_losses.card_losses(_store(path), deal_id)


def deal_losses(deal_id: str) -> pl.DataFrame:
    """Each analysed card of a stored deal with its point loss and best cards (``analysis.card_losses``;
    empty when ``tarock analyse --store`` has not analysed it)."""
    return _deal_losses(store_path(), deal_id)


# -- what-if -------------------------------------------------------------------------------------------------
@st.cache_data(ttl=TTL, show_spinner=False)
def _sessions(path: str, filters: Filters) -> pl.DataFrame:
    return sessions.sessions(_store(path), filters)


def session_list(filters: Filters) -> pl.DataFrame:
    """One row per session the filters keep (``analysis.sessions.sessions``)."""
    return _sessions(store_path(), filters)


@st.cache_data(show_spinner=False, max_entries=8)
def _usual_tables(path: str, content: str, ruleset: str) -> whatif.UsualTables:
    return whatif.usual_tables(_store(path), ruleset)


def usual_tables(ruleset: str) -> whatif.UsualTables:
    """The table most of the store's ``ruleset`` deals were played under and the nearest other one
    (``analysis.whatif.usual_tables``): the What-if page's default comparison."""
    path = store_path()
    return _usual_tables(path, store_content(path), ruleset)


@st.cache_data(show_spinner=False, max_entries=32)
def _whatif(path: str, content: str, tables: tuple[str, ...], filters: Filters, session: str | None,
            write: bool) -> whatif.WhatIf:
    return whatif.whatif(_store(path), tables, filters, session, write=write)


def what_if(tables: tuple[str, ...], filters: Filters, session: str | None = None) -> whatif.WhatIf:
    """The selected deals rescored under each of ``tables`` (``analysis.whatif``): beside the store in a
    generation of its own where this server may write it, else in this process (a read-only server writes
    nothing: ``dashboards.pages.uploads_enabled``); cached under the store's content (``store_content``)."""
    path = store_path()
    return _whatif(path, store_content(path), tables, filters, session, uploads_enabled())


@st.cache_data(ttl=TTL, show_spinner=False, max_entries=64)
def _deal_under(path: str, deal_id: str, tables: tuple[str, ...]) -> whatif.DealUnder | None:
    return whatif.deal_under(_store(path), deal_id, tables)


def deal_under(deal_id: str, tables: tuple[str, ...]) -> whatif.DealUnder | None:
    """One deal rescored within its session under each of ``tables`` (``analysis.whatif.deal_under``)."""
    return _deal_under(store_path(), deal_id, tables)


# -- ingest --------------------------------------------------------------------------------------------------
def stored_from(files: list[str]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """What the store holds from these source files: (deals with their findings, rejected lines), read fresh."""
    return uploads.stored_from(_store(store_path()), files)
