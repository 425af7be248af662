"""Called kings (4 players, Tri/Dva/Ena): partner found, own king called, king in the talon, partner revealed.

A declared deal with a ``called_king`` has a partner (``deals.partner``)
unless the declarer called their own king or the king lay in the talon.
The store has no talon column, so which of the two is read from the stored
record (``deals.record``) of those partnerless deals: the king was in the
talon when the record's ``talon`` lists it (whether the declarer then took
it or not); a record without a talon counts it in the talon when the
declarer took it with ``talon_pick`` or nobody played it (``plays``).
Otherwise the declarer held it: own king.  The partner is revealed in the
trick where they played the called king (``plays``).
"""

from __future__ import annotations

import polars as pl

from analysis.filters import NO_FILTERS, Filters, child_where, deal_where
from analysis.sql import run, same_copy
from analysis.stats import rate
from analysis.store import Store
from analysis.vocabulary import contract_rank

_SUMMARY = f"""
WITH called AS (
    SELECT d.contract, d.partner, d.content_hash FROM deals d WHERE {{where}} AND d.called_king IS NOT NULL
),
parsed AS (
    SELECT d.content_hash, d.shard, d.source_file, d.source_pos, d.called_king,
           json_extract(d.record, ['$.talon', '$.talon_pick']) AS found
    FROM deals d WHERE {{where}} AND d.called_king IS NOT NULL AND d.partner IS NULL
),
partnerless AS (
    SELECT content_hash, shard, source_file, source_pos, called_king,
           CAST(found[1] AS VARCHAR[]) AS talon, CAST(found[2] AS VARCHAR[]) AS talon_pick
    FROM parsed
),
untold AS (
    SELECT content_hash, shard, source_file, source_pos, called_king FROM partnerless
    WHERE talon IS NULL AND NOT list_contains(coalesce(talon_pick, []), called_king)
),
played AS (
    SELECT p.shard, p.source_file, p.source_pos FROM stored.plays p
    SEMI JOIN untold u ON {same_copy('u', 'p')} AND u.called_king = p.card
    WHERE {{plays_where}}
),
in_talon AS (
    SELECT content_hash FROM partnerless WHERE list_contains(coalesce(talon, talon_pick, []), called_king)
    UNION ALL
    SELECT u.content_hash FROM untold u ANTI JOIN played p ON {same_copy('u', 'p')}
)
SELECT c.contract, count(*) AS deals, count(c.partner) AS with_partner,
       count(*) FILTER (WHERE c.partner IS NULL AND t.content_hash IS NULL) AS own_king,
       count(t.content_hash) AS king_in_talon
FROM called c LEFT JOIN in_talon t ON t.content_hash = c.content_hash
GROUP BY c.contract
ORDER BY {{order}}
"""

_REVEALS = f"""
WITH partnered AS (
    SELECT d.shard, d.source_file, d.source_pos, d.called_king, d.partner FROM deals d
    WHERE {{where}} AND d.called_king IS NOT NULL AND d.partner IS NOT NULL
),
reveals AS (
    SELECT p.trick_no, count(*) AS revealed
    FROM stored.plays p
    JOIN partnered c ON {same_copy('c', 'p')} AND c.called_king = p.card AND c.partner = p.player
    WHERE p.card IN (SELECT DISTINCT called_king FROM partnered) AND {{plays_where}}
    GROUP BY p.trick_no
)
SELECT trick_no AS trick, revealed,
       CAST(sum(revealed) OVER (ORDER BY trick_no) AS BIGINT) AS cumulative,
       (SELECT count(*) FROM partnered) AS with_partner
FROM reveals
ORDER BY trick_no
"""


def king_calls(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per contract with a king call: deals, with_partner, own_king, king_in_talon, and the shares
    own_king_share and king_in_talon_share (of deals)."""
    frame = run(store, _SUMMARY, where=deal_where(filters, declared=True),
                plays_where=child_where(filters, "p"), order=contract_rank("c.contract"))
    return frame.with_columns(rate("own_king", "deals").alias("own_king_share"),
                              rate("king_in_talon", "deals").alias("king_in_talon_share"))


def partner_reveals(store: Store, filters: Filters = NO_FILTERS) -> pl.DataFrame:
    """Per trick: in how many deals the partner was revealed then (played the called king), how many by
    then (cumulative), of how many deals with a partner, and revealed_share (cumulative / with_partner)."""
    frame = run(store, _REVEALS, where=deal_where(filters, declared=True),
                plays_where=child_where(filters, "p"))
    return frame.with_columns(rate("cumulative", "with_partner").alias("revealed_share"))
