"""A club of tables on one scoreboard, through an MQTT broker (Mosquitto).

Table side: :mod:`.publisher` sends a referee's public events and public state to the
broker, using the journal as its outbox. Club side: :mod:`.scoreboard` subscribes to every
table and keeps what it hears in SQLite (:mod:`.store`); :mod:`.web` serves it. The broker's
files (passwords, ACL, config) come from :mod:`.broker`. See docs/club.md.
"""
