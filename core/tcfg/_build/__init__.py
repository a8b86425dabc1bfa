"""Turning a spec (text, JSON, dict, tag or target) into a Target.

Imports ``tcfg._base`` and ``tcfg._model``; sees the registry as a ``Tables``
(``tables.py``, which the other modules name for types only), never as ``tcfg.Registry``.
Imports point down this list: ``entry`` (build, from_dict, with_attrs, nested contexts)
> ``readers`` (text, JSON and dict) > ``pipeline`` (finish) > ``derive`` (the parsers)
> ``lookup``, ``size``, ``json_text``, ``memo`` (the builder's state, records and limits).
"""
