"""Example tcfg plugin: LoongArch CPUs, as walked through in docs/plugins.md."""
