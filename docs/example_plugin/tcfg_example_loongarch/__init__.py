"""Example tcfg plugin: RISC-V CPUs, as walked through in docs/plugins.md."""
