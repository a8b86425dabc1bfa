"""Throwaway plugin: claims the LoongArch architecture the example plugin owns."""
