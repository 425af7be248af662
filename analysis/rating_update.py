"""One match's rating update: OpenSkill's Plackett-Luce model, on plain floats.

``openskill.models.PlackettLuce().rate`` (openskill 6.x, the Weng-Lin
Bayesian approximation, algorithm 4 of Weng & Lin 2011) is the reference:
this module computes the same update without its per-call objects, deep
copies and argument checks, which cost ~45-70 µs a match — more than a
minute for a million deals.  ``tests/analysis/test_rating_update.py`` checks
the two agree on thousands of random matches (and works three deals by
hand).  The model's defaults are used: ``MU``, ``SIGMA``, ``BETA``,
``KAPPA``, ``TAU``; no margin, no weights, no balance, no sigma limit.

The update, for teams ``i`` with ranks ``r_i`` (lower is better) and each
player's ``σ`` first widened by the dynamics ``τ`` (``σ² + τ²``):

* a team's ``μ_i`` and ``σ_i²`` are its players' sums;
  ``c = sqrt(Σ_i (σ_i² + β²))``;
* ``S_q = Σ_{s: r_s ≥ r_q} exp(μ_s / c)`` and ``A_q`` the number of teams
  ranked ``r_q``;
* for team ``i``, over the teams ``q`` with ``r_q ≤ r_i``, with
  ``p = exp(μ_i / c) / S_q``: ``Ω_i = σ_i²/c · Σ ((q = i) − p) / A_q`` and
  ``Δ_i = γ_i · σ_i²/c² · Σ p (1 − p) / A_q`` where ``γ_i = σ_i / c``;
* each player ``j`` of team ``i``: ``μ_j += σ_j²/σ_i² · Ω_i`` and
  ``σ_j *= sqrt(max(1 − σ_j²/σ_i² · Δ_i, κ))``.

(The library's step that averages the ``μ`` change of tied teams reads the
already updated players, so it changes nothing; neither does this module.)

With two teams, winners ``W`` against losers ``L``, the sums reduce to
``p = 1 / (1 + exp((μ_L − μ_W) / c))`` (the winners' modelled chance):
``Ω_W = σ_W²/c · (1 − p)``, ``Ω_L = −σ_L²/c · (1 − p)`` and
``Δ_i = σ_i²/c² · p (1 − p) · σ_i / c``; ``analysis.ratings.compute`` rates
the common deal so, inline.
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

    ``mus`` and ``sigmas`` are per player; ``teams`` lists each team's
    player indexes; ``ranks`` each team's place (1 best, equal for a tie).
    """
    s2 = [s * s + _TAU2 for s in sigmas]
    k = len(teams)
    team_mu = [sum(mus[p] for p in team) for team in teams]
    team_s2 = [sum(s2[p] for p in team) for team in teams]
    c = sqrt(sum(team_s2) + k * _BETA2)
    e = [exp(m / c) for m in team_mu]
    sum_q = [sum(e[s] for s in range(k) if ranks[s] >= ranks[q]) for q in range(k)]
    a = [sum(1 for s in range(k) if ranks[s] == ranks[q]) for q in range(k)]
    new_mu = list(mus)
    new_sigma = [sqrt(v) for v in s2]
    for i, team in enumerate(teams):
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] <= ranks[i]:
                p = e[i] / sum_q[q]
                delta += p * (1 - p) / a[q]
                omega += ((1 - p) if q == i else -p) / a[q]
        ts2 = team_s2[i]
        omega *= ts2 / c
        delta *= ts2 / (c * c) * (sqrt(ts2) / c)
        for j in team:
            share = s2[j] / ts2
            new_mu[j] = mus[j] + share * omega
            new_sigma[j] *= sqrt(max(1 - share * delta, KAPPA))
    return new_mu, new_sigma
