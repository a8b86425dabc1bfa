"""The hook implementations of the cuda plugin."""
