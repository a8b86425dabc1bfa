"""Throwaway plugin: fails to import."""
