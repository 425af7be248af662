"""The accelerators are built wherever a C compiler is: a missing extension fails here, it is not skipped.

The build treats the extensions as optional (``setup.py``), so a failed compile would otherwise go unnoticed:
every differential test of the fast paths skips without them.  This module has no skip marker of its own.
"""

from __future__ import annotations

import importlib.util
import shutil
import sysconfig

import pytest

EXTENSIONS = ("tarock.accel._fastplay", "tarock.accel._fastscore", "tarock.accel._solver", "tarock.accel._checkline",
              "tarock.accel._krscore", "tarock.sim._simplay", "ingest._bulkrows", "analysis._ratings", "ingest._packrecord")


@pytest.mark.parametrize("name", EXTENSIONS)
def test_the_extension_is_built_where_a_compiler_is(name: str) -> None:
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(cc) is None:
        pytest.skip(f"no C compiler ({cc}) here: the pure-Python reference runs")
    assert importlib.util.find_spec(name) is not None, f"{name} was not built though {cc} is here"
