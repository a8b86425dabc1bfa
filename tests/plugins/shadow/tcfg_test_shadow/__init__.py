"""Throwaway plugin: claims the RISC-V architecture the example plugin owns."""
