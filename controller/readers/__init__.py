"""Card sources: each turns something physical into sightings (see controller.readers.sightings)."""
