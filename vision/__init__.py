"""Camera card recognition: find cards in an overhead frame and read their indices."""
