"""tcfg plugin: Arm A-profile and M-profile CPUs."""
