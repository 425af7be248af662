"""The simulator: heuristic players, injected mistakes with their ground truth, and random legal play."""
