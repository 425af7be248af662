"""What several test modules share: fixtures' stores, record writers, paths."""
