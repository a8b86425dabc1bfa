"""The hook implementations of the x86 plugin."""
