"""ingest: record files into the store (docs/store.md).

One module per job:

* ``discover`` — find record files, fingerprint them;
* ``shards`` — plan shards (line ranges that never cut a session);
* ``pipeline`` — ``process_shard``: read, check, score, build rows, publish;
* ``rows`` / ``schema`` — the tables' rows as Arrow, and their columns;
* ``hands`` / ``hand_features`` — the ``hands`` table: what each player was dealt, its counts (numpy, and
  the SQL the views compute them by);
* ``packed_record`` — the stored form of ``deals.record``: a skeleton and the deal's cards range-coded, or each
  card code one byte (C: ``_packrecord``);
* ``writer`` / ``layout`` — atomic publication, and where files live;
* ``groups`` — group shards: the shards that share a session, scored together so it is whole;
* ``dedup`` — the ``duplicates`` table;
* ``executors`` — ``local:N`` process pools and Dask clusters;
* ``coordinator`` — a whole run: plan, execute, retire, group, dedup, rescore switch, run log;
* ``store`` — DuckDB views, ``sql``, DuckDB export;
* ``progress`` / ``commands`` — what the CLI calls and prints.
"""
