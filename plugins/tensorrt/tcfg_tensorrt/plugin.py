"""The hook implementations of the tensorrt plugin."""
