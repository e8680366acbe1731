"""Decks: tag-to-card maps and enrolment."""
