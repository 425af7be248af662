"""A store of one bundled sample file with its hand model fitted: what the advice and hand-model tests read."""

from __future__ import annotations

import shutil
from pathlib import Path

from analysis import hand_fit
from ingest.coordinator import run_ingest
from tests.support.paths import ROOT


def fitted_sample_store(base: Path, sample: str, min_deals: int) -> Path:
    """``data/sample/<sample>`` ingested into ``base/store`` (inputs in ``base/in``), the hand model fitted from
    every contract with ``min_deals`` declared deals or more; the store's path."""
    (base / "in").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "sample" / sample, base / "in")
    run_ingest([base / "in"], base / "store", "local:1")
    hand_fit.fit_store(base / "store", min_deals=min_deals)
    return base / "store"
