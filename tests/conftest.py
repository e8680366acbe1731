"""Shared pytest set-up. Tests make or ship their own data; the shared reading folder
beside the repository is for people, never for tests."""
