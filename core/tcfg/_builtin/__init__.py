"""The core's own plugin, seen through ``tcfg.plugin`` like any other: ``llvm``, ``c``, ``composite``."""
