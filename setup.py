"""The optional C extension of the load stage (`rulekb._yamlnodes`, built against libyaml): when
no compiler or no libyaml is there, the package installs without it and the load uses its
positioned pure-Python loader for every file. Everything else is in pyproject.toml."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("rulekb._yamlnodes", ["tools/rulekb/_yamlnodes.c"], libraries=["yaml"], optional=True)])
