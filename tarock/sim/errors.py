"""The simulator's own error: raised when what it plays and what the engine replays disagree."""

from __future__ import annotations


class SimulationError(RuntimeError):
    """A simulated deal's replay disagrees with what the simulator meant to write.

    This is a bug in the simulator or the engine; the message names the deal.
    """
