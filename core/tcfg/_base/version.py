"""The version of tcfg-core (kept apart so that any layer may read it)."""

__version__ = "0.1.0"
