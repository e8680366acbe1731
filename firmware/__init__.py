"""Reader-hub firmware. Plain modules here run under MicroPython on the hub and CPython in tests."""
