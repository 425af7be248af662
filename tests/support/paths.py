"""The repository's folders, for tests wherever they sit in tests/."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's root."""
EXAMPLES = ROOT / "data" / "examples"
"""The example records (data/examples)."""
