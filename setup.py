"""The optional C accelerator of the engine's hot path; the rest of the build is in pyproject.toml.

``optional=True``: where no C compiler or Python headers are found the build skips the extension and
the package runs on the pure-Python engine (``tarock.accel``).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("tarock._fastplay", ["tarock/_fastplay.c"], optional=True,
                             extra_compile_args=["-O2"])])
