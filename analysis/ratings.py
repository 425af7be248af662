"""Player ratings with their uncertainty: the derived ``ratings`` table, built from the store, and read back.

Each rated deal is one match (docs/analysis.md, Ratings), rated with
OpenSkill's Plackett-Luce model (``analysis/rating_update.py``), in its own
pool per ruleset and number of players (a Königrufen rating says nothing
about Slovenian three-handed play):

* a deal with a declarer: the players are split by side (declarer and
  partner against the opponents) and by their own ``results.won``; the
  winners rank first, the losers second (Königrufen's several declarers of
  one negative game each stand with those of the same result);
* Klop and Trischaken (no declarer): each player is a team of one, ranked
  by their own score (equal scores share a place);
* not rated: deals in error, deals without a result (annulled, no score)
  and deals whose players all share one result.

Deals are taken in the order ``date`` (deals without a date last),
``session``, ``seq`` (missing last), ``deal_id``, ``content_hash`` — a
stable order for any store.  Every player of a rated deal gets a row: the
rating after that deal, ``games`` (their rated deals in the pool so far),
and the dealt hand's ``taroks`` and ``kings`` (from the record's ``hands``;
null when the record has none), the luck beside the skill.

``rebuild`` writes the table as one Parquet file of the current generation
(``StoreLayout.derived_path``), replaced whole, under the store's lock;
the CLI runs it after every ``tarock ingest`` and as ``tarock ratings rebuild``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from math import exp, sqrt
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from analysis.filters import NO_FILTERS, Filters, child_where
from analysis.rating_update import BETA, KAPPA, MU, SIGMA, TAU, Z, rate
from analysis.sql import TRUE, Fragment, param, run
from analysis.store import Store
from ingest.layout import StoreLayout
from ingest.schema import RATINGS
from ingest.store import open_store

_MATCHES = """
WITH d AS (
    SELECT shard, source_file, source_line, deal_id, content_hash, ruleset, n_players, date,
           row_number() OVER (ORDER BY ruleset, n_players, date NULLS LAST, session NULLS LAST, seq NULLS LAST,
                                       deal_id, content_hash) AS g,
           json_transform(record, '{"hands": "MAP(VARCHAR, VARCHAR[])"}').hands AS hands
    FROM deals WHERE status <> 'error'
)
SELECT d.g, d.deal_id, d.content_hash, d.ruleset, d.n_players, d.date, r.player, r.role, r.won, r.score,
       CAST(len(list_filter(d.hands[r.player], lambda c: c LIKE 'T%')) AS INTEGER) AS taroks,
       CAST(len(list_filter(d.hands[r.player], lambda c: c[2:] = 'K')) AS INTEGER) AS kings
FROM d JOIN results r ON r.shard = d.shard AND r.source_file = d.source_file AND r.source_line = d.source_line
ORDER BY d.g, r.seat_no
"""
"""Every player of every deal not in error, in rating order (``g`` numbers the deals so, once; sorting the
rows by it is far cheaper than by the text columns), a deal's players together in seat order.
Card codes of taroks start with ``T`` (``T1`` Pagat … ``T22`` Škis), a king's is a suit and ``K``
(``tarock/cards.py``)."""


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What ``rebuild`` did: rated deals, rows written, the file, and the seconds it took."""

    deals: int
    rows: int
    path: Path | None
    seconds: float


_SIDES = ("declarer", "partner", "opponent")
SKIP, TWO, MANY = 0, 1, 2
"""How a deal is rated: not at all, winners against losers (the two-team closed form, inline), or several
teams (``rating_update.rate``)."""


def _kinds(frame: pl.DataFrame) -> pl.DataFrame:
    """Per deal (``g``, in order): how it is rated (``kind``, see the module docstring), column-wise."""
    klop = (pl.col("role") == "klop").all()
    declared = pl.col("role").is_in(_SIDES).all() & pl.col("won").is_not_null().all()
    scored = pl.col("score").is_not_null().all()
    sides = ((pl.col("role") == "opponent").cast(pl.Int8) * 2 + pl.col("won").cast(pl.Int8)).n_unique()
    kind = (pl.when(declared & (pl.col("won").n_unique() > 1)).then(pl.when(sides == 2).then(TWO).otherwise(MANY))
            .when(klop & scored & (pl.col("score").n_unique() > 1)).then(MANY)
            .otherwise(SKIP))
    return frame.group_by("g", maintain_order=True).agg(kind.alias("kind"), pl.len().alias("rows"))


def compute(frame: pl.DataFrame) -> pl.DataFrame:
    """The ``ratings`` rows from ``_MATCHES``'s rows (a deal's players consecutive, deals in rating order).

    The players' states live in flat lists indexed by a number per pool and
    player; the common deal (winners against losers) is rated inline by the
    two-team closed form ``analysis/rating_update.py`` derives, the rest
    through its ``rate``.
    """
    if frame.is_empty():
        return _rows(frame.clear(), [], [], [], [])
    deals = _kinds(frame)
    kinds = deals["kind"].to_list()
    ends = deals["rows"].cum_sum().to_list()
    pool = pl.struct("ruleset", "n_players").rank("dense").cast(pl.Int64) - 1
    player = pl.col("player").rank("dense").cast(pl.Int64) - 1
    keyed = frame.select((pool * (player.max() + 1) + player).alias("key"), pool.alias("pool"))
    key, pools = keyed["key"].to_list(), keyed["pool"].to_list()
    won, role, score = frame["won"].to_list(), frame["role"].to_list(), frame["score"].to_list()
    size = max(key) + 1
    mu, sigma, games = [MU] * size, [SIGMA] * size, [0] * size
    next_index = [0] * (max(pools) + 1)
    keep: list[int] = []
    out_mu: list[float] = []
    out_sigma: list[float] = []
    out_games: list[int] = []
    out_index: list[int] = []
    tau2, beta2, kappa = TAU * TAU, BETA * BETA, KAPPA
    s = 0
    for how, e in zip(kinds, ends):
        if how == SKIP:
            s = e
            continue
        rows = range(s, e)
        if how == TWO:  # winners against losers: rating_update's two-team closed form, inline
            tw = tl = mw = ml = 0.0
            for r in rows:
                k = key[r]
                v = sigma[k] * sigma[k] + tau2
                if won[r]:
                    tw += v
                    mw += mu[k]
                else:
                    tl += v
                    ml += mu[k]
            c = sqrt(tw + tl + 2 * beta2)
            p = 1.0 / (1.0 + exp((ml - mw) / c))
            q = 1.0 - p
            pq_c2 = p * q / (c * c)
            for r in rows:
                k = key[r]
                v = sigma[k] * sigma[k] + tau2
                t, omega = (tw, tw / c * q) if won[r] else (tl, -tl / c * q)
                mu[k] += v / t * omega
                sigma[k] = sqrt(v) * sqrt(max(1 - v / t * (t * pq_c2 * sqrt(t) / c), kappa))
        else:
            keys = [key[r] for r in rows]
            teams, ranks = _teams([role[r] for r in rows], [won[r] for r in rows], [score[r] for r in rows])
            new_mu, new_sigma = rate([mu[k] for k in keys], [sigma[k] for k in keys], teams, ranks)
            for k, m_, s_ in zip(keys, new_mu, new_sigma):
                mu[k], sigma[k] = m_, s_
        index = next_index[pools[s]]
        next_index[pools[s]] = index + 1
        for r in rows:
            k = key[r]
            games[k] += 1
            keep.append(r)
            out_mu.append(mu[k])
            out_sigma.append(sigma[k])
            out_games.append(games[k])
            out_index.append(index)
        s = e
    return _rows(frame[keep] if keep else frame.clear(), out_index, out_games, out_mu, out_sigma)


def _teams(roles: list[str | None], won: list[bool | None],
           scores: list[int | None]) -> tuple[list[list[int]], list[int]]:
    """The teams (positions in the deal) and their places of a deal ``_kinds`` rates as ``MANY``: a Klop's
    players each alone, placed by score (equal scores share a place); else the sides split by result."""
    if roles[0] == "klop":
        known = [x for x in scores if x is not None]
        return [[i] for i in range(len(known))], [1 + sum(1 for o in known if o > x) for x in known]
    sides: dict[tuple[bool, bool | None], list[int]] = {}
    for i, (role, w) in enumerate(zip(roles, won)):
        sides.setdefault((role == "opponent", w), []).append(i)
    return list(sides.values()), [1 if w else 2 for _, w in sides]


def _rows(kept: pl.DataFrame, index: list[int], games: list[int], mus: list[float],
          sigmas: list[float]) -> pl.DataFrame:
    """The ``ratings`` columns of the rated rows."""
    mu = pl.Series("mu", mus, pl.Float64)
    sigma = pl.Series("sigma", sigmas, pl.Float64)
    return kept.select("deal_id", "content_hash", "ruleset", "n_players").with_columns(
        pl.Series("deal_index", index, pl.Int64), kept["date"], kept["player"],
        pl.Series("games", games, pl.Int32), mu, sigma, (mu - Z * sigma).alias("ordinal"),
        kept["taroks"], kept["kings"])


def rebuild(store_dir: str | os.PathLike[str]) -> Rebuilt:
    """Rate every deal of the store again and replace its ``ratings`` file (idempotent: same store, same file).

    Holds the store's lock (``StoreBusy`` while an ingest runs).  A store
    with no generation yet has nothing to rate.
    """
    began = time.perf_counter()
    layout = StoreLayout.at(store_dir)
    with layout.lock():
        generation = layout.read_current()
        if generation is None:
            return Rebuilt(0, 0, None, time.perf_counter() - began)
        con = open_store(store_dir)
        try:
            frame = con.sql(_MATCHES).pl()
        finally:
            con.close()
        rated = compute(frame)
        table = pa.Table.from_arrays([rated[f.name].to_arrow().cast(f.type) for f in RATINGS], schema=RATINGS)
        path = layout.derived_path(generation, "ratings")
        path.parent.mkdir(parents=True, exist_ok=True)
        temp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        pq.write_table(table, temp, compression="zstd")
        os.replace(temp, path)
    deals = rated.select("ruleset", "n_players", "deal_index").n_unique() if rated.height else 0
    return Rebuilt(deals, rated.height, path, time.perf_counter() - began)


_CURRENT = """
SELECT g.ruleset, g.n_players, g.player, arg_max(g.mu, g.deal_index) AS mu,
       arg_max(g.sigma, g.deal_index) AS sigma, arg_max(g.ordinal, g.deal_index) AS ordinal,
       max(g.games) AS games, max(g.date) AS last_date
FROM ratings g
WHERE {where} AND {only}
GROUP BY g.ruleset, g.n_players, g.player
ORDER BY g.ruleset, g.n_players, ordinal DESC, g.player
"""

_HISTORY = """
SELECT g.ruleset, g.n_players, g.player, g.deal_index, g.deal_id, g.date, g.games, g.mu, g.sigma, g.ordinal
FROM ratings g
WHERE {where} AND list_contains({players}, g.player)
ORDER BY g.ruleset, g.n_players, g.player, g.deal_index
"""


def _only(filters: Filters) -> Fragment:
    return TRUE if filters.player is None else Fragment("g.player = $f_player", {"f_player": filters.player})


def current(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Each player's rating after the last of their filtered deals, per pool (ruleset, n_players):
    mu, sigma, ordinal (μ − 3σ, the conservative value they are ranked by), games, last_date."""
    return run(store, _CURRENT, where=child_where(filters, "g"), only=_only(filters))


def history(store: Store, players: list[str], filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """The rating after every filtered deal of these players, in order (the rating-band chart's rows)."""
    return run(store, _HISTORY, where=child_where(filters, "g"), players=param("h_players", players))


def has_ratings(store: Store) -> bool:
    """Whether the store's ``ratings`` table has rows (False: never built, or nothing rated)."""
    return bool(store.query("SELECT count(*) > 0 AS n FROM ratings")["n"][0])
