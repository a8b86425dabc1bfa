"""Throwaway plugin: whose registration hook raises."""
