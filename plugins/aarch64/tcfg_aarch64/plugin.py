"""The hook implementations of the aarch64 plugin."""
