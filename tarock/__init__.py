"""tarock: the rules library. Cards, rulesets, a validating replay engine, scoring and record formats.

It knows nothing of the store, polars or duckdb: those live downstream in
``ingest``, ``analysis`` and ``dashboards``.
"""

__version__ = "0.1.0"
ENGINE_VERSION = "1"
