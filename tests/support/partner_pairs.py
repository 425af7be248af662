"""Pairs frames made by hand, ranked as ``analysis.partnerships.partners`` ranks the store's: the clubs of
issue 38's partner matrix, whose ranked pairs the matrix used to leave out."""

from __future__ import annotations

import polars as pl

from analysis.partnerships import ranked_pairs

COLUMNS = ["player_a", "player_b", "deals", "wins", "mean_score"]


def club_pairs() -> pl.DataFrame:
    """Thirteen busy players B01 … B13, each pair of them 9 deals together (too few to rank; 12 × 9 = 108 deals
    in pairs each), and Eva and Franc, 14 deals won of 14 together and none with anybody else: the top-ranked
    pair, of the two players with the fewest deals in pairs."""
    busy = [f"B{i:02}" for i in range(1, 14)]
    rows = [(a, b, 9, 4, 0.0) for i, a in enumerate(busy) for b in busy[i + 1:]] + [("Eva", "Franc", 14, 14, 50.0)]
    return ranked_pairs(pl.DataFrame(rows, schema=COLUMNS, orient="row"))


def petra_pairs() -> pl.DataFrame:
    """Petra's pairs (the sidebar's player filter leaves only hers): fifteen partners P00 … P14, 10 + i deals
    with the i-th, all ranked."""
    rows = [("Petra", f"P{i:02}", 10 + i, 5 + i, 0.0) for i in range(15)]
    return ranked_pairs(pl.DataFrame(rows, schema=COLUMNS, orient="row"))
