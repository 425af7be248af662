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
(``ingest.store.derived_path``), replaced whole, under the store's lock;
the CLI runs it after every ``tarock ingest`` and as ``tarock ratings rebuild``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

from analysis.filters import NO_FILTERS, Filters, child_where
from analysis.rating_update import MU, SIGMA, Z, rate, rate_two
from analysis.sql import TRUE, Fragment, param, run
from analysis.store import Store
from ingest.layout import StoreLayout
from ingest.schema import RATINGS
from ingest.store import derived_path, open_store

_MATCHES = """
WITH d AS (
    SELECT shard, source_line, deal_id, content_hash, ruleset, n_players, date, session, seq,
           TRY_CAST(json_extract(record, '$.hands') AS MAP(VARCHAR, VARCHAR[])) AS hands
    FROM deals WHERE status <> 'error'
)
SELECT d.deal_id, d.content_hash, d.ruleset, d.n_players, d.date, r.player, r.role, r.won, r.score,
       CAST(len(list_filter(d.hands[r.player], lambda c: c LIKE 'T%')) AS INTEGER) AS taroks,
       CAST(len(list_filter(d.hands[r.player], lambda c: c[2:] = 'K')) AS INTEGER) AS kings
FROM d JOIN results r ON r.shard = d.shard AND r.source_line = d.source_line
ORDER BY d.ruleset, d.n_players, d.date NULLS LAST, d.session NULLS LAST, d.seq NULLS LAST,
         d.deal_id, d.content_hash, r.seat_no
"""
"""Every player of every deal not in error, in rating order, a deal's players together in seat order.
Card codes of taroks start with ``T`` (``T1`` Pagat … ``T22`` Škis), a king's is a suit and ``K``
(``tarock/cards.py``)."""


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """What ``rebuild`` did: rated deals, rows written, the file, and the seconds it took."""

    deals: int
    rows: int
    path: Path | None
    seconds: float


def _match(roles: list[str | None], won: list[bool | None],
           scores: list[int | None]) -> tuple[list[list[int]], list[int]] | None:
    """The teams (player positions) and their ranks of one deal, or None when it is not rated."""
    n = len(roles)
    if all(role == "klop" for role in roles):
        known = [s for s in scores if s is not None]
        if len(known) < n:
            return None
        ranks = [1 + sum(1 for other in known if other > mine) for mine in known]
        return ([[i] for i in range(n)], ranks) if len(set(ranks)) > 1 else None
    if any(role is None or role == "klop" for role in roles) or any(w is None for w in won):
        return None
    sides: dict[tuple[bool, bool | None], list[int]] = {}
    for i in range(n):
        sides.setdefault((roles[i] == "opponent", won[i]), []).append(i)
    if len({w for _, w in sides}) < 2:
        return None
    teams = list(sides.values())
    return teams, [1 if w else 2 for _, w in sides]


def compute(frame: pl.DataFrame) -> pl.DataFrame:
    """The ``ratings`` rows from ``_MATCHES``'s rows (a deal's players consecutive, deals in rating order)."""
    deal_id = frame["deal_id"].to_list()
    ruleset = frame["ruleset"].to_list()
    n_players = frame["n_players"].to_list()
    player = frame["player"].to_list()
    role = frame["role"].to_list()
    won = frame["won"].to_list()
    score = frame["score"].to_list()
    state: dict[tuple[str, int, str], list[float]] = {}  # (ruleset, n_players, player) -> [mu, sigma, games]
    index_of: dict[tuple[str, int], int] = {}
    keep: list[int] = []
    out_mu: list[float] = []
    out_sigma: list[float] = []
    out_games: list[int] = []
    out_index: list[int] = []
    content = frame["content_hash"].to_list()
    start, total = 0, len(deal_id)
    while start < total:
        end = start + 1  # a deal's rows: the same stored deal (the views hide a second copy of one)
        while end < total and content[end] == content[start] and deal_id[end] == deal_id[start]:
            end += 1
        match = _match(role[start:end], won[start:end], score[start:end])
        if match is not None:
            pool = (ruleset[start], n_players[start])
            index = index_of.get(pool, 0)
            index_of[pool] = index + 1
            rows = range(start, end)
            now = [state.setdefault((*pool, player[r]), [MU, SIGMA, 0]) for r in rows]
            teams, ranks = match
            if len(teams) == 2:
                w, lose = (teams[0], teams[1]) if ranks[0] < ranks[1] else (teams[1], teams[0])
                mw, sw, ml, sl = rate_two([now[i][0] for i in w], [now[i][1] for i in w],
                                          [now[i][0] for i in lose], [now[i][1] for i in lose])
                for i, m, s in zip(w, mw, sw):
                    now[i][0], now[i][1] = m, s
                for i, m, s in zip(lose, ml, sl):
                    now[i][0], now[i][1] = m, s
            else:
                mus, sigmas = rate([x[0] for x in now], [x[1] for x in now], teams, ranks)
                for x, m, s in zip(now, mus, sigmas):
                    x[0], x[1] = m, s
            for r, x in zip(rows, now):
                x[2] += 1
                keep.append(r)
                out_mu.append(x[0])
                out_sigma.append(x[1])
                out_games.append(int(x[2]))
                out_index.append(index)
        start = end
    kept = frame[keep] if keep else frame.clear()
    mu = pl.Series("mu", out_mu, pl.Float64)
    sigma = pl.Series("sigma", out_sigma, pl.Float64)
    return kept.select("deal_id", "content_hash", "ruleset", "n_players").with_columns(
        pl.Series("deal_index", out_index, pl.Int64), kept["date"], kept["player"],
        pl.Series("games", out_games, pl.Int32), mu, sigma, (mu - Z * sigma).alias("ordinal"),
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
        path = derived_path(store_dir, "ratings", generation)
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
