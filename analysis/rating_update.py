"""One match's rating update: a Weng-Lin Plackett-Luce update on side means, made zero-sum, on plain floats.

The model (docs/analysis.md, Ratings, says why) is openskill's Plackett-Luce
(``openskill.models.PlackettLuce``, the Weng-Lin Bayesian approximation,
algorithm 4 of Weng & Lin 2011) with two changes for tarok's unequal sides:

* **a side's strength is the mean of its players' μ**, not their sum: one
  declarer against three opponents, or a pair with a silent partner, meet on
  one scale whatever their sizes.  The side's variance is that of the mean,
  ``Σσ_j² / n²``, and the chain rule gives each of its ``n`` players ``1/n``
  of the side's gradient and ``1/n²`` of its curvature;
* **the update is zero-sum**: what the deal adds to its players' μ in all is
  taken back from them in proportion to their variance, so the pool's mean μ
  stays where it started (the sum model moved it every deal whose sides
  differ in size: on the bundled sample the Slovenian pools fell from 25 to
  about 0).  With two sides the winners still all gain and the losers lose.

For sides of one player each the first change is nothing, and with equal
σ the second is nothing either: there this is openskill's update exactly
(``tests/analysis/test_rating_update.py`` checks it against the library).
The model's defaults are openskill's: ``MU``, ``SIGMA``, ``BETA``, ``KAPPA``,
``TAU``.

The update, for sides ``i`` of ``n_i`` players with ranks ``r_i`` (lower is
better) and each player's variance first widened by the dynamics ``τ``
(``v_j = σ_j² + τ²``):

* a side's ``μ_i`` is its players' mean and ``V_i = Σ v_j / n_i²``;
  ``c = sqrt(Σ_i (V_i + β²))``;
* ``S_q = Σ_{s: r_s ≥ r_q} exp(μ_s / c)`` and ``A_q`` the number of sides
  ranked ``r_q``;
* for side ``i``, over the sides ``q`` with ``r_q ≤ r_i``, with
  ``p = exp(μ_i / c) / S_q``: ``g_i = Σ ((q = i) − p) / A_q`` and
  ``h_i = Σ p (1 − p) / A_q``;
* each player ``j`` of side ``i``: the step ``d_j = v_j g_i / (n_i c)`` and
  ``σ_j = sqrt(v_j) · sqrt(max(1 − v_j h_i γ_i / (n_i² c²), κ))`` with
  ``γ_i = sqrt(V_i) / c``;
* zero-sum: ``μ_j += d_j − v_j · (Σ d) / (Σ v)`` over the deal's players.

With two sides, winners ``W`` against losers ``L``, ``p = 1 / (1 + exp((μ_L
− μ_W) / c))`` is the winners' modelled chance and ``g_W = −g_L = 1 − p``,
``h_W = h_L = p (1 − p)``; ``analysis.ratings.compute`` rates the common deal
so, inline.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import exp, sqrt

MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0
Z = 3.0
"""The ordinal (conservative rating) is ``μ − Z·σ``, openskill's ``ordinal()``."""

_BETA2 = BETA * BETA
_TAU2 = TAU * TAU


def rate(mus: Sequence[float], sigmas: Sequence[float], teams: Sequence[Sequence[int]],
         ranks: Sequence[int]) -> tuple[list[float], list[float]]:
    """The players' new ``μ`` and ``σ`` after one match.

    ``mus`` and ``sigmas`` are per player; ``teams`` lists each side's
    player indexes; ``ranks`` each side's place (1 best, equal for a tie).
    """
    s2 = [s * s + _TAU2 for s in sigmas]
    k = len(teams)
    sizes = [len(team) for team in teams]
    team_mu = [sum(mus[p] for p in team) / n for team, n in zip(teams, sizes)]
    team_s2 = [sum(s2[p] for p in team) / (n * n) for team, n in zip(teams, sizes)]
    c = sqrt(sum(team_s2) + k * _BETA2)
    e = [exp(m / c) for m in team_mu]
    sum_q = [sum(e[s] for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    a = [sum(1 for s in range(k) if ranks[s] == ranks[q]) for q in range(k)]
    new_mu = list(mus)
    new_sigma = [sqrt(v) for v in s2]
    step = [0.0] * len(mus)
    net = total = 0.0
    for i, team in enumerate(teams):
        g = h = 0.0
        for q in range(k):
            if ranks[q] <= ranks[i]:
                p = e[i] / sum_q[q]
                h += p * (1 - p) / a[q]
                g += ((1 - p) if q == i else -p) / a[q]
        n = sizes[i]
        g /= n * c
        h *= sqrt(team_s2[i]) / (n * n * c * c * c)
        for j in team:
            step[j] = s2[j] * g
            net += step[j]
            total += s2[j]
            new_sigma[j] *= sqrt(max(1 - s2[j] * h, KAPPA))
    shift = net / total
    for team in teams:
        for j in team:
            new_mu[j] = mus[j] + (step[j] - s2[j] * shift)
    return new_mu, new_sigma
