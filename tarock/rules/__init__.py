"""The rules: trick-play legality both rulesets share, bidding, table events, renons policies, the session ledger, and one sub-package per ruleset (its tables, replay phases and scoring together)."""
