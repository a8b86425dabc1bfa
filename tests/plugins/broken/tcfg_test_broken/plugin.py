"""Fails to import, as a plugin with a missing dependency would."""

import tcfg_missing_dependency  # noqa: F401
