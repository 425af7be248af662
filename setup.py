"""The optional C accelerators of the engine's, the scorer's and ingest's hot paths; the rest of the build is in
pyproject.toml.

``optional=True``: where no C compiler or Python headers are found the build skips an extension and the
package runs on the pure-Python reference (``tarock.accel``, ``tarock.accel.scorer``; ingest's usual path
instead of its bulk path, ``ingest.bulk``; the simulator's Python players, ``tarock.sim.players``;
``tarock check``'s usual path instead of its fast path, ``tarock.check.fast``; the ratings' two-team update in
Python, ``analysis.ratings``; the ``record_packed`` codec's Python loops, ``ingest.packed_record``).  ``ingest._bulkrows``,
``tarock.sim._simplay``, ``tarock.accel._solver`` and ``tarock.accel._checkline`` reach the rules kernel through
the capsule ``tarock/accel/kernel.h`` declares, so they include that directory.
"""

from setuptools import Extension, setup

KERNEL_H = ["tarock/accel"]

setup(ext_modules=[Extension("tarock.accel._fastplay", ["tarock/accel/_fastplay.c"], optional=True,
                             include_dirs=KERNEL_H, depends=["tarock/accel/kernel.h", "tarock/accel/tables.h"],
                             extra_compile_args=["-O2"]),
                   Extension("tarock.accel._fastscore", ["tarock/accel/_fastscore.c"], optional=True,
                             extra_compile_args=["-O2"]),
                   Extension("tarock.accel._krscore", ["tarock/accel/_krscore.c"], optional=True,
                             extra_compile_args=["-O2"]),
                   Extension("tarock.sim._simplay", ["tarock/sim/_simplay.c"], optional=True, include_dirs=KERNEL_H,
                             depends=["tarock/accel/kernel.h", "tarock/accel/tables.h"],
                             # no fused multiply-add: a hand's value sums floats as the Python does
                             extra_compile_args=["-O2", "-ffp-contract=off"]),
                   Extension("tarock.accel._solver", ["tarock/accel/_solver.c"], optional=True, include_dirs=KERNEL_H,
                             depends=["tarock/accel/kernel.h"], extra_compile_args=["-O2"]),
                   Extension("tarock.accel._checkline", ["tarock/accel/_checkline.c"], optional=True,
                             include_dirs=KERNEL_H, depends=["tarock/accel/kernel.h", "tarock/accel/sheet.h"],
                             extra_compile_args=["-O2"]),
                   Extension("ingest._bulkrows", ["ingest/_bulkrows.c"], optional=True, include_dirs=KERNEL_H,
                             depends=["tarock/accel/kernel.h", "tarock/accel/sheet.h"], extra_compile_args=["-O2"]),
                   # no fused multiply-add: the ratings come out as the Python reference's, bit for bit
                   Extension("analysis._ratings", ["analysis/_ratings.c"], optional=True,
                             extra_compile_args=["-O2", "-ffp-contract=off"]),
                   Extension("ingest._packrecord", ["ingest/_packrecord.c"], optional=True,
                             extra_compile_args=["-O2"])])
