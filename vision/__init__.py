"""Camera card recognition: find cards in an overhead frame and read their indices.

Standalone (numpy + OpenCV only): ``controller.readers.camera`` adapts it to sightings.
"""

from vision.detector import CardDetector, Detection

__all__ = ["CardDetector", "Detection"]
