"""The store's tables as DuckDB reads them: names and DuckDB types, without pyarrow.

GENERATED from ingest/schema.py (the columns' one source) by ``python -m scripts.gen_view_columns``;
do not edit.  ``ingest.store`` builds its views from these, so reading the store (``tarock sql``) does not
import pyarrow; tests/ingest/test_view_columns.py checks they agree with the schema.
"""

from __future__ import annotations

PARTITION_TYPES: dict[str, str] = {'ruleset': 'VARCHAR', 'n_players': 'INTEGER'}
"""``ingest.schema.PARTITION_TYPES``: the hive partition columns' DuckDB types."""

TABLES: dict[str, tuple[tuple[str, str], ...]] = {
    'findings': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('idx', 'INTEGER'),
        ('code', 'VARCHAR'), ('severity', 'VARCHAR'), ('trick', 'INTEGER'), ('position', 'INTEGER'),
        ('player', 'VARCHAR'), ('card', 'VARCHAR'), ('message', 'VARCHAR'), ('file', 'VARCHAR'),
        ('line', 'BIGINT'), ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'bids': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('idx', 'INTEGER'),
        ('player', 'VARCHAR'), ('bid', 'VARCHAR'), ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'announcements': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('idx', 'INTEGER'),
        ('player', 'VARCHAR'), ('bonus', 'VARCHAR'), ('kontra', 'VARCHAR'), ('level', 'INTEGER'),
        ('against', 'VARCHAR'), ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'tricks': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('trick_no', 'INTEGER'),
        ('leader', 'VARCHAR'), ('winner', 'VARCHAR'), ('cards', 'VARCHAR[]'), ('players', 'VARCHAR[]'),
        ('points', 'INTEGER'), ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'plays': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('trick_no', 'INTEGER'),
        ('position', 'INTEGER'), ('player', 'VARCHAR'), ('card', 'VARCHAR'), ('legal', 'BOOLEAN'),
        ('code', 'VARCHAR'), ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'results': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('player', 'VARCHAR'),
        ('seat', 'VARCHAR'), ('seat_no', 'INTEGER'), ('role', 'VARCHAR'), ('score', 'INTEGER'),
        ('recorded_score', 'INTEGER'), ('score_diff', 'INTEGER'), ('unpenalised', 'INTEGER'),
        ('radelci_before', 'INTEGER'), ('radelci_after', 'INTEGER'), ('penalty_policy', 'VARCHAR'),
        ('won', 'BOOLEAN'), ('breakdown_json', 'VARCHAR'), ('game', 'INTEGER'), ('difference', 'INTEGER'),
        ('trula', 'INTEGER'), ('kings', 'INTEGER'), ('pagat_ultimo', 'INTEGER'), ('king_ultimo', 'INTEGER'),
        ('valat', 'INTEGER'), ('mondfang', 'INTEGER'), ('klop', 'INTEGER'), ('penalty', 'INTEGER'),
        ('radelc', 'INTEGER'), ('trull', 'INTEGER'), ('vier_koenige', 'INTEGER'), ('uhu', 'INTEGER'),
        ('kakadu', 'INTEGER'), ('quapil', 'INTEGER'), ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'hands': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('player', 'VARCHAR'),
        ('seat_no', 'INTEGER'), ('declarer', 'BOOLEAN'), ('hand_mask', 'BIGINT'), ('n_cards', 'INTEGER'),
        ('taroks', 'INTEGER'), ('high_taroks', 'INTEGER'), ('tarok_points', 'INTEGER'), ('pagat', 'BOOLEAN'),
        ('mond', 'BOOLEAN'), ('skis', 'BOOLEAN'), ('trula_cards', 'INTEGER'), ('kings', 'INTEGER'),
        ('hearts', 'INTEGER'), ('diamonds', 'INTEGER'), ('spades', 'INTEGER'), ('clubs', 'INTEGER'),
        ('voids', 'INTEGER'), ('singletons', 'INTEGER'), ('card_points', 'INTEGER'),
        ('talon_taken', 'INTEGER'), ('talon_points', 'INTEGER'), ('called_king_place', 'VARCHAR'),
        ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'rejects': (
        ('file', 'VARCHAR'), ('line', 'BIGINT'), ('reason', 'VARCHAR'), ('raw', 'VARCHAR'),
        ('shard', 'VARCHAR'),
    ),
    'deals': (
        ('deal_id', 'VARCHAR'), ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'),
        ('source_line', 'BIGINT'), ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('players', 'VARCHAR[]'),
        ('session', 'VARCHAR'), ('seq', 'BIGINT'), ('date', 'DATE'), ('dealer', 'VARCHAR'),
        ('forehand', 'VARCHAR'), ('contract', 'VARCHAR'), ('declarer', 'VARCHAR'), ('partner', 'VARCHAR'),
        ('called_king', 'VARCHAR'), ('status', 'VARCHAR'), ('won', 'BOOLEAN'), ('declarer_points', 'INTEGER'),
        ('opponents_points', 'INTEGER'), ('card_points_json', 'VARCHAR'), ('n_tricks', 'INTEGER'),
        ('n_findings', 'INTEGER'), ('n_renons', 'INTEGER'), ('has_recorded', 'BOOLEAN'),
        ('score_mismatch', 'BOOLEAN'), ('options_hash', 'VARCHAR'), ('options_json', 'VARCHAR'),
        ('engine_version', 'VARCHAR'), ('record', 'VARCHAR'), ('ruleset', 'VARCHAR'),
        ('n_players', 'INTEGER'),
    ),
    'duplicates': (
        ('content_hash', 'VARCHAR'), ('source_file', 'VARCHAR'), ('source_line', 'BIGINT'),
        ('source_pos', 'BIGINT'), ('shard', 'VARCHAR'), ('kept_file', 'VARCHAR'), ('kept_line', 'BIGINT'),
        ('kept_shard', 'VARCHAR'),
    ),
    'ingest_runs': (
        ('run_id', 'VARCHAR'), ('started_at', 'TIMESTAMPTZ'), ('finished_at', 'TIMESTAMPTZ'),
        ('seconds', 'DOUBLE'), ('generation', 'VARCHAR'), ('rescore', 'BOOLEAN'), ('files', 'BIGINT'),
        ('shards', 'BIGINT'), ('shards_skipped', 'BIGINT'), ('shards_failed', 'BIGINT'), ('read', 'BIGINT'),
        ('stored', 'BIGINT'), ('rejected', 'BIGINT'), ('deduplicated', 'BIGINT'), ('ok', 'BIGINT'),
        ('renons', 'BIGINT'), ('error', 'BIGINT'), ('groups', 'BIGINT'), ('sessions_rescored', 'BIGINT'),
        ('engine_version', 'VARCHAR'), ('options_json', 'VARCHAR'), ('executor', 'VARCHAR'),
    ),
    'ratings': (
        ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'), ('deal_index', 'INTEGER'), ('deal_id', 'VARCHAR'),
        ('date', 'DATE'), ('contract', 'VARCHAR'), ('player', 'VARCHAR'), ('games', 'INTEGER'),
        ('mu', 'FLOAT'), ('sigma', 'FLOAT'), ('taroks', 'TINYINT'), ('kings', 'TINYINT'),
        ('latest', 'BOOLEAN'),
    ),
    'player_totals': (
        ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'), ('player', 'VARCHAR'), ('deals', 'BIGINT'),
        ('declared', 'BIGINT'), ('won', 'BIGINT'), ('scored', 'BIGINT'), ('score_sum', 'BIGINT'),
        ('radelci', 'BIGINT'), ('renons', 'BIGINT'),
    ),
    'pair_totals': (
        ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'), ('player_a', 'VARCHAR'), ('player_b', 'VARCHAR'),
        ('deals', 'BIGINT'), ('wins', 'BIGINT'), ('scored', 'BIGINT'), ('score_sum', 'BIGINT'),
    ),
    'card_analysis': (
        ('deal_id', 'VARCHAR'), ('trick', 'INTEGER'), ('order', 'INTEGER'), ('player', 'VARCHAR'),
        ('card', 'VARCHAR'), ('best_cards', 'VARCHAR[]'), ('best_points', 'INTEGER'),
        ('played_points', 'INTEGER'), ('point_loss', 'INTEGER'), ('solver_version', 'VARCHAR'),
        ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
    'game_analysis': (
        ('deal_id', 'VARCHAR'), ('trick', 'INTEGER'), ('order', 'INTEGER'), ('player', 'VARCHAR'),
        ('card', 'VARCHAR'), ('declarer_side', 'BOOLEAN'), ('declarer_could_win', 'BOOLEAN'),
        ('declarer_can_win', 'BOOLEAN'), ('decided', 'BOOLEAN'), ('kept', 'VARCHAR[]'),
        ('solver_version', 'VARCHAR'), ('ruleset', 'VARCHAR'), ('n_players', 'INTEGER'),
    ),
}
"""``ingest.schema.TABLES``: every table a store exposes, its (column, DuckDB type) pairs in order."""

SHARD_TABLES: tuple[str, ...] = (
    'findings', 'bids', 'announcements', 'tricks', 'plays', 'results', 'hands', 'rejects', 'deals',
)
"""``ingest.schema.SHARD_TABLES``' names, in order."""

DEAL_TABLES: tuple[str, ...] = (
    'findings', 'bids', 'announcements', 'tricks', 'plays', 'results', 'hands', 'deals',
)
"""``ingest.schema.DEAL_TABLES``."""

DEAL_ONLY_KEY: tuple[str, ...] = (
    'deal_id', 'content_hash', 'source_line',
)
"""``ingest.schema.DEAL_ONLY_KEY``: the key columns only ``deals`` stores."""

DERIVED_TABLES: tuple[str, ...] = (
    'ratings', 'player_totals', 'pair_totals',
)
"""``ingest.schema.DERIVED_TABLES``' names."""

ANALYSIS_TABLES: tuple[str, ...] = (
    'card_analysis', 'game_analysis',
)
"""``ingest.schema.ANALYSIS_TABLES``' names."""

UNPACK_RECORD = 'tarock_record'
"""``ingest.schema.UNPACK_RECORD``."""

PACKED_COLUMNS: dict[str, dict[str, tuple[str, str]]] = {'deals': {'record': ('record_packed', 'tarock_record')}}
"""``ingest.schema.PACKED_COLUMNS``: per table, each column's stored name and the SQL function giving it back."""

COMPUTED_COLUMNS: dict[str, dict[str, str]] = {
    'hands': {
        'n_cards': 'bit_count(hand_mask)::INTEGER',
        'taroks': 'bit_count(hand_mask & 4194303)::INTEGER',
        'high_taroks': 'bit_count(hand_mask & 4177920)::INTEGER',
        'tarok_points': '(1 * bit_count(hand_mask & 1048574)::INTEGER + 5 * bit_count(hand_mask & 3145729)::INTEGER)::INTEGER',
        'pagat': '((hand_mask >> 0) & 1) = 1',
        'mond': '((hand_mask >> 20) & 1) = 1',
        'skis': '((hand_mask >> 21) & 1) = 1',
        'trula_cards': 'bit_count(hand_mask & 3145729)::INTEGER',
        'kings': 'bit_count(hand_mask & 9042521602654208)::INTEGER',
        'hearts': 'bit_count(hand_mask & 1069547520)::INTEGER',
        'diamonds': 'bit_count(hand_mask & 273804165120)::INTEGER',
        'spades': 'bit_count(hand_mask & 70093866270720)::INTEGER',
        'clubs': 'bit_count(hand_mask & 17944029765304320)::INTEGER',
        'voids': '((bit_count(hand_mask & 1069547520)::INTEGER = 0)::INTEGER + (bit_count(hand_mask & 273804165120)::INTEGER = 0)::INTEGER + (bit_count(hand_mask & 70093866270720)::INTEGER = 0)::INTEGER + (bit_count(hand_mask & 17944029765304320)::INTEGER = 0)::INTEGER)',
        'singletons': '((bit_count(hand_mask & 1069547520)::INTEGER = 1)::INTEGER + (bit_count(hand_mask & 273804165120)::INTEGER = 1)::INTEGER + (bit_count(hand_mask & 70093866270720)::INTEGER = 1)::INTEGER + (bit_count(hand_mask & 17944029765304320)::INTEGER = 1)::INTEGER)',
        'card_points': '((3 * (1 * bit_count(hand_mask & 1059670501359614)::INTEGER + 2 * bit_count(hand_mask & 1130315200331776)::INTEGER + 3 * bit_count(hand_mask & 2260630400663552)::INTEGER + 4 * bit_count(hand_mask & 4521260801327104)::INTEGER + 5 * bit_count(hand_mask & 9042521605799937)::INTEGER) - 2 * bit_count(hand_mask) + 1) // 3)::INTEGER',
    },
}
"""``ingest.schema.COMPUTED_COLUMNS``: per table, the SQL a view computes a column by."""
