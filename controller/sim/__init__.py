"""The simulated table: bots and the virtual reader hub wiring."""
