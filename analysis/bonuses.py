"""Bonuses and kontras in declared contracts: how often each bonus is made silently or announced, and kontra.

One row per ruleset in scope and bonus (or kontra target) of that ruleset.
Every count is read from the stored score lines, from the declarer side's
point of view (positive: in the declarer side's favour), so it agrees with
the recomputed score sheet:

* a bonus's line is the declarer's ``results`` column of that name (the
  declarer writes every playing-side line); Mondfang lines belong to the
  Mond's owner, so its line is the owner's Mondfang with the sign flipped
  when the owner is an opponent (a captured opponent's Mond is good for the
  declarer's side);
* a bonus is *announced* when ``announcements`` has it (the first
  announcement of it decides which side announced); it is *made* when its
  line favours the announcing side and *failed* when the line goes against
  it — an announced Mondfang also fails when no Mond of the other side is
  captured (it then scores nothing); an announcement whose line a valat
  replaced is neither;
* a silent line (no announcement) is a bonus made silently, by whichever
  side — except that a silent Pagat ultimo can also fail and still write a
  line (Slovenian), so its line is made or failed according to the side of
  the Pagat's owner (who played ``T1``, from ``plays``).

A kontra on a target (``game`` or a bonus) is said by the player of its
lowest level; it *wins* when that player's side comes out ahead on the
target: for ``game`` the declarer's side lost (or, for a kontra by the
declarer's side, won), for a bonus its line goes against the announcing side.

Declared deals are seen in ``results`` as the declarer's row with a result
(``role`` 'declarer', ``won`` not null), the same deals ``deal_where(...,
declared=True)`` keeps in ``deals``; a player's side is the declarer's
when they are the declarer or the partner.
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, child_where, deal_where
from analysis.sql import Fragment, param, run
from analysis.stats import rate
from analysis.store import Store
from tarock.deal import BONUSES, RULESETS
from tarock.rules.slovenian.scoring import KONTRA_NAMES
from tarock.rules.slovenian.replay import KONTRA_TARGETS as SLOVENIAN_KONTRA_TARGETS

KONTRA_TARGETS: dict[str, tuple[str, ...]] = {
    "slovenian": SLOVENIAN_KONTRA_TARGETS,
    "koenigrufen": ("game", *BONUSES["koenigrufen"]),
}
"""What may be kontra'd in each ruleset (Königrufen: the game and each bonus, separately)."""

_LINE_COLUMNS = tuple(dict.fromkeys(b for r in RULESETS for b in BONUSES[r] if b != "mondfang"))
"""The bonuses whose line the declarer writes (every bonus of either ruleset but Mondfang)."""

_HIGHER_LEVELS = {name: level for level, name in sorted(KONTRA_NAMES.items()) if level > 2}
"""re (4), sub (8), mord (16): the kontra levels above the first."""

_LINES = f"""
WITH declared AS (
    SELECT d.shard, d.source_file, d.source_pos, d.ruleset, d.declarer, d.partner, d.won
    FROM deals d WHERE {{where}}
),
scope AS (
    SELECT ruleset, count(*) AS deals FROM declared GROUP BY ruleset
),
scored AS (
    SELECT r.shard, r.source_file, r.source_pos, r.ruleset, r.role, r.mondfang,
           {', '.join(f'r.{b}' for b in _LINE_COLUMNS)}
    FROM stored.results r
    WHERE r.won IS NOT NULL AND {{results_where}}
      AND ((r.role = 'declarer' AND ({' OR '.join(f'r.{b} <> 0' for b in _LINE_COLUMNS)}))
           OR (r.mondfang <> 0 AND r.role IN ('declarer', 'partner', 'opponent')))
),
lines AS (
    SELECT shard, source_file, source_pos, ruleset, bonus, value FROM (
        UNPIVOT (SELECT shard, source_file, source_pos, ruleset, {', '.join(_LINE_COLUMNS)}
                 FROM scored WHERE role = 'declarer')
        ON {', '.join(_LINE_COLUMNS)} INTO NAME bonus VALUE value)
    WHERE value <> 0
    UNION ALL
    SELECT shard, source_file, source_pos, any_value(ruleset), 'mondfang',
           sum(CASE WHEN role = 'opponent' THEN -mondfang ELSE mondfang END)
    FROM scored WHERE mondfang <> 0
    GROUP BY shard, source_file, source_pos
),
said AS (
    SELECT a.shard, a.source_file, a.source_pos, d.ruleset, a.idx, a.bonus, a.kontra, a.level, d.won,
           CASE WHEN a.player IN (d.declarer, d.partner) THEN 1 ELSE -1 END AS side
    FROM stored.announcements a JOIN declared d ON d.shard = a.shard AND d.source_file = a.source_file
        AND d.source_pos = a.source_pos
    WHERE {{announcements_where}}
),
names AS (
    SELECT n.* FROM (SELECT unnest({{names}}, recursive := true)) n SEMI JOIN scope s ON s.ruleset = n.ruleset
)"""
"""The declared deals in scope and their number per ruleset, their non-zero bonus lines (declarer side's
view), what was announced or kontra'd in them with the side (+1 declarer's, -1 opponents') of who said
it, and the (ruleset, name, pos) rows to report for the rulesets in scope."""

_BONUSES = _LINES + """,
announced AS (
    SELECT shard, source_file, source_pos, any_value(ruleset) AS ruleset, bonus, arg_min(side, idx) AS side
    FROM said WHERE bonus IS NOT NULL
    GROUP BY shard, source_file, source_pos, bonus
),
events AS (
    SELECT coalesce(l.shard, a.shard) AS shard, coalesce(l.source_file, a.source_file) AS source_file,
        coalesce(l.source_pos, a.source_pos) AS source_pos,
           coalesce(l.ruleset, a.ruleset) AS ruleset, coalesce(l.bonus, a.bonus) AS bonus,
           coalesce(l.value, 0) AS value, a.side AS announcer
    FROM lines l FULL JOIN announced a ON l.shard = a.shard AND l.source_file = a.source_file
        AND l.source_pos = a.source_pos AND l.bonus = a.bonus
),
pagat_player AS (
    SELECT p.shard, p.source_file, p.source_pos, p.player FROM stored.plays p
    WHERE p.card = 'T1' AND {plays_where}
      AND (p.shard, p.source_file, p.source_pos) IN (
          SELECT shard, source_file, source_pos FROM lines WHERE bonus = 'pagat_ultimo')
),
pagat_owner AS (
    SELECT o.shard, o.source_file, o.source_pos,
           CASE WHEN o.player IN (d.declarer, d.partner) THEN 1 ELSE -1 END AS side
    FROM pagat_player o JOIN declared d ON d.shard = o.shard AND d.source_file = o.source_file
        AND d.source_pos = o.source_pos
),
counted AS (
    SELECT e.ruleset, e.bonus,
           count(*) FILTER (WHERE e.announcer IS NULL AND (e.bonus <> 'pagat_ultimo' OR e.value * o.side > 0))
               AS silent_made,
           count(*) FILTER (WHERE e.announcer IS NULL AND e.bonus = 'pagat_ultimo' AND e.value * o.side < 0)
               AS silent_failed,
           count(e.announcer) AS announced,
           count(*) FILTER (WHERE e.value * e.announcer > 0) AS announced_made,
           count(*) FILTER (WHERE e.value * e.announcer < 0
                                  OR (e.bonus = 'mondfang' AND e.value * e.announcer = 0)) AS announced_failed
    FROM events e LEFT JOIN pagat_owner o ON o.shard = e.shard AND o.source_file = e.source_file
        AND o.source_pos = e.source_pos AND e.bonus = 'pagat_ultimo'
    GROUP BY e.ruleset, e.bonus
)
SELECT n.ruleset, n.name AS bonus, s.deals,
       coalesce(c.silent_made, 0) AS silent_made, coalesce(c.silent_failed, 0) AS silent_failed,
       coalesce(c.announced, 0) AS announced, coalesce(c.announced_made, 0) AS announced_made,
       coalesce(c.announced_failed, 0) AS announced_failed
FROM names n JOIN scope s ON s.ruleset = n.ruleset
LEFT JOIN counted c ON c.ruleset = n.ruleset AND c.bonus = n.name
ORDER BY n.pos
"""

_KONTRAS = _LINES + """,
kontras AS (
    SELECT shard, source_file, source_pos, any_value(ruleset) AS ruleset, kontra AS target,
           max(level) AS level,
           arg_min(side, level) AS side, any_value(won) AS won
    FROM said WHERE kontra IS NOT NULL
    GROUP BY shard, source_file, source_pos, kontra
),
outcome AS (
    SELECT k.ruleset, k.target, k.level,
           k.side * CASE WHEN k.target = 'game' THEN CASE WHEN k.won THEN 1 ELSE -1 END
                         ELSE coalesce(l.value, 0) END AS ahead
    FROM kontras k LEFT JOIN lines l ON l.shard = k.shard AND l.source_file = k.source_file
        AND l.source_pos = k.source_pos AND l.bonus = k.target
),
counted AS (
    SELECT ruleset, target, count(*) AS kontra, {levels}, count(*) FILTER (WHERE ahead > 0) AS kontra_won
    FROM outcome GROUP BY ruleset, target
),
opportunities AS (
    SELECT ruleset, bonus AS target, count(DISTINCT (shard, source_file, source_pos)) AS n
    FROM said WHERE bonus IS NOT NULL
    GROUP BY ruleset, bonus
)
SELECT n.ruleset, n.name AS target,
       CASE WHEN n.name = 'game' THEN s.deals ELSE coalesce(o.n, 0) END AS opportunities,
       coalesce(c.kontra, 0) AS kontra, {level_columns}, coalesce(c.kontra_won, 0) AS kontra_won
FROM names n JOIN scope s ON s.ruleset = n.ruleset
LEFT JOIN opportunities o ON o.ruleset = n.ruleset AND o.target = n.name
LEFT JOIN counted c ON c.ruleset = n.ruleset AND c.target = n.name
ORDER BY n.pos
"""


def _names(by_ruleset: dict[str, tuple[str, ...]]) -> Fragment:
    """The (ruleset, name, pos) rows to report, bound as a list of structs, in ruleset then name order."""
    rows = [(r, name) for r in RULESETS for name in by_ruleset.get(r, ())]
    return param("b_names", [{"ruleset": r, "name": name, "pos": i} for i, (r, name) in enumerate(rows)])


def _scope(filters: Filters) -> dict[str, Fragment]:
    return {
        "where": deal_where(filters, declared=True),
        "results_where": child_where(filters, "r"),
        "announcements_where": child_where(filters, "a"),
        "plays_where": child_where(filters, "p"),
    }


def bonuses(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per ruleset and bonus: deals in scope, silent_made, silent_failed (Pagat ultimo), announced,
    announced_made, announced_failed, and the rates silent_rate (silent_made / deals) and
    made_rate (announced_made / announced)."""
    frame = run(store, _BONUSES, **_scope(filters), names=_names(BONUSES))
    return frame.with_columns(rate("silent_made", "deals").alias("silent_rate"),
                              rate("announced_made", "announced").alias("made_rate"))


def kontras(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per ruleset and kontra target: opportunities (declared deals for ``game``, deals with the bonus
    announced otherwise), deals with a kontra, with re / sub / mord, kontra_won, kontra_rate and won_rate."""
    levels = ", ".join(f"count(*) FILTER (WHERE level >= {level}) AS {name}"
                       for name, level in _HIGHER_LEVELS.items())
    level_columns = ", ".join(f"coalesce(c.{name}, 0) AS {name}" for name in _HIGHER_LEVELS)
    frame = run(store, _KONTRAS, **_scope(filters), names=_names(KONTRA_TARGETS), levels=Fragment(levels),
                level_columns=Fragment(level_columns))
    return frame.with_columns(rate("kontra", "opportunities").alias("kontra_rate"),
                              rate("kontra_won", "kontra").alias("won_rate"))
