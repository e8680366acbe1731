"""Court Piece Referee: the service that runs on the Pi (rules engine, referee, readers, web)."""
__version__ = "0.1.0"
