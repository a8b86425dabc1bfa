"""The base: what every layer above uses, importing nothing of tcfg.

``errors`` (the TargetError family, did-you-mean, bounded reprs), ``grammar`` (the
target string's tokens and quoting, the text limit), ``memo`` (the one bounded cache),
``files`` (the package's data files) and ``version``.
"""
