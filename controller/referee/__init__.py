"""The referee: sightings and commands in, table events out; the journal; the table-action <-> engine-input mapping."""
