"""What a chart drawn by a page (AppTest) was sent: its rows of data."""

from __future__ import annotations

from typing import Any

import pyarrow as pa


def chart_rows(chart: Any) -> list[dict[str, Any]]:
    """Every row of data a chart drawn on the page was sent with (its layers' datasets, one after the other)."""
    return [row for data in chart.proto.datasets for row in pa.ipc.open_stream(data.data.data).read_all().to_pylist()]
