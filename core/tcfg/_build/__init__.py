"""Turning a spec (text, JSON, dict, tag or target) into a Target.

Imports ``tcfg._base`` and ``tcfg._model``; sees the registry as a ``RegistryView``.
"""
