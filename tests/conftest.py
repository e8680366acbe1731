"""Shared pytest set-up. Tests never read ../shared: they make or ship their own data."""
