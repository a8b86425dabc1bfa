"""Plugins and their tables: discovery, the pluggy manager, lazy loading, staging, tags, advice.

Imports everything below it (``_base``, ``_model``, ``_build``, ``_builtin``); nothing
below imports it.
"""
