"""Double-dummy search, per-card analysis of recorded play, and the check of a claim of the remaining tricks."""
