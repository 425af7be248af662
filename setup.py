"""The optional C accelerators of the engine's and the scorer's hot paths; the rest of the build is in
pyproject.toml.

``optional=True``: where no C compiler or Python headers are found the build skips an extension and the
package runs on the pure-Python reference (``tarock.accel``, ``tarock.accel.scorer``).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("tarock.accel._fastplay", ["tarock/accel/_fastplay.c"], optional=True,
                             extra_compile_args=["-O2"]),
                   Extension("tarock.accel._fastscore", ["tarock/accel/_fastscore.c"], optional=True,
                             extra_compile_args=["-O2"])])
