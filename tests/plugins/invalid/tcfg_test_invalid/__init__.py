"""Throwaway plugin: registers an invalid tag."""
