"""Throwaway plugin: takes two seconds to import."""
