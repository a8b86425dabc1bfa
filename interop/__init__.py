"""The interop suite: tcfg against the real neighbours (Apache TVM 0.27, iree-compile, Triton).

Run by tox's ``interop`` environment, which installs them from PyPI; a test whose
neighbour is absent skips with the package to install. Targets come from the
installed plugins (the process-wide registry): install them all for the full sweep.
"""
