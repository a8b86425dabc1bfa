"""tcfg plugin: x86 CPUs."""
