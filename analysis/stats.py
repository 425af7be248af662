"""Rates with 95 % Wilson score intervals, as polars expressions over counted columns.

The Wilson interval stays inside [0, 1] and is sensible for small counts,
where the normal approximation gives nonsense at 0 and n successes.  With
``p = k / n`` and ``z`` the 97.5 % normal quantile::

    (k + z²/2 ± z·sqrt(k(n−k)/n + z²/4)) / (n + z²)

which equals the textbook ``(p + z²/2n ± z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n)``.
At ``k = 0`` the lower end is exactly 0 and at ``k = n`` the upper end is
exactly 1 (set explicitly, not left to rounding); ``n = 0`` gives nulls.
"""

from __future__ import annotations

import polars as pl

Z95 = 1.959963984540054
"""The 97.5 % quantile of the standard normal distribution (two-sided 95 %)."""


def rate(k: str, n: str) -> pl.Expr:
    """``k / n`` as a float, null when ``n`` is 0."""
    return pl.when(pl.col(n) > 0).then(pl.col(k) / pl.col(n)).otherwise(None)


def wilson(k: str, n: str, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """The (low, high) ends of the Wilson score interval for ``k`` successes in ``n`` trials."""
    kf, nf = pl.col(k).cast(pl.Float64), pl.col(n).cast(pl.Float64)
    z2 = z * z
    centre = kf + z2 / 2
    half = z * ((kf * (nf - kf) / nf) + z2 / 4).sqrt()
    denominator = nf + z2
    low = pl.when(nf <= 0).then(None).when(kf <= 0).then(0.0).otherwise((centre - half) / denominator)
    high = pl.when(nf <= 0).then(None).when(kf >= nf).then(1.0).otherwise((centre + half) / denominator)
    return low, high


def with_rate(frame: pl.DataFrame, k: str, n: str, name: str) -> pl.DataFrame:
    """``frame`` with ``name``, ``ci_low`` and ``ci_high`` (the rate ``k / n`` and its Wilson interval)."""
    low, high = wilson(k, n)
    return frame.with_columns(rate(k, n).alias(name), low.alias("ci_low"), high.alias("ci_high"))
