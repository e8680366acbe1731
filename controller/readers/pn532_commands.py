"""Payloads of the few PN532 commands a card table needs, encoded and decoded.

Pure code shared by the driver and the simulator so that both sides agree on one
reading of the user manual (UM0701-02 §7), and so the parsing of what comes back from
a tag can be tested without a line.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Baud-rate/modulation byte for ISO/IEC 14443 type A at 106 kbit/s (MIFARE, NTAG).
BRTY_106_TYPE_A = 0x00
#: RFConfiguration item "MaxRetries": MxRtyATR, MxRtyPSL, MxRtyPassiveActivation.
CFG_MAX_RETRIES = 0x05
#: MxRtyPassiveActivation value meaning "retry for ever" (the power-on default).
RETRY_FOREVER = 0xFF
#: SAMConfiguration "normal mode": no SAM, and it takes the chip out of LowVbat mode.
SAM_NORMAL = 0x01


class PayloadError(ValueError):
    """A response payload that does not have the shape the manual describes."""


@dataclass(frozen=True, slots=True)
class FirmwareVersion:
    ic: int
    version: int
    revision: int
    support: int

    @classmethod
    def decode(cls, payload: bytes) -> FirmwareVersion:
        if len(payload) != 4:
            raise PayloadError(f"GetFirmwareVersion answer has {len(payload)} bytes, not 4")
        return cls(*payload)

    def encode(self) -> bytes:
        return bytes([self.ic, self.version, self.revision, self.support])

    def __str__(self) -> str:
        return f"PN5{self.ic:02X} firmware {self.version}.{self.revision}"


@dataclass(frozen=True, slots=True)
class TypeATarget:
    """A type A tag as InListPassiveTarget reports it (106 kbit/s)."""

    number: int  # Tg, the logical number the PN532 gave it
    sens_res: bytes  # ATQA, 2 bytes
    sel_res: int  # SAK
    uid: bytes  # NFCID1: 4, 7 or 10 bytes
    ats: bytes = b""  # only for ISO 14443-4 tags (SAK bit 0x20)

    @property
    def tag_id(self) -> str:
        """The project's tag id: the UID as upper-case hex."""
        return self.uid.hex().upper()

    def encode(self) -> bytes:
        out = bytes([self.number]) + self.sens_res + bytes([self.sel_res, len(self.uid)]) + self.uid
        if self.ats:
            out += bytes([len(self.ats) + 1]) + self.ats
        return out


def sam_configuration_params(timeout_50ms: int = 0x14, use_irq: bool = False) -> bytes:
    """Normal mode; the time-out only matters in virtual-card mode."""
    return bytes([SAM_NORMAL, timeout_50ms & 0xFF, 0x01 if use_irq else 0x00])


def max_retries_params(passive_activation: int, atr: int = 0xFF, psl: int = 0x01) -> bytes:
    """RFConfiguration parameters limiting how often InListPassiveTarget retries.

    With the default (0xFF, retry for ever) the PN532 sits on the command until a tag
    appears, so the host cannot tell "no tag" from "dead chip"; a small number makes an
    empty table answer at once with zero targets.
    """
    return bytes([CFG_MAX_RETRIES, atr & 0xFF, psl & 0xFF, passive_activation & 0xFF])


def in_list_passive_target_params(max_targets: int = 1, brty: int = BRTY_106_TYPE_A) -> bytes:
    return bytes([max_targets, brty])


def encode_targets(targets: list[TypeATarget]) -> bytes:
    """The InListPassiveTarget answer payload (after the response code)."""
    return bytes([len(targets)]) + b"".join(t.encode() for t in targets)


def decode_targets(payload: bytes) -> list[TypeATarget]:
    """Parse an InListPassiveTarget answer for type A targets; strict about lengths."""
    if not payload:
        raise PayloadError("InListPassiveTarget answer is empty")
    count = payload[0]
    if count > 2:
        raise PayloadError(f"InListPassiveTarget reports {count} targets (the PN532 handles 2)")
    pos = 1
    targets: list[TypeATarget] = []
    for _ in range(count):
        if len(payload) < pos + 5:
            raise PayloadError("InListPassiveTarget answer cut short in a target header")
        number = payload[pos]
        sens_res = bytes(payload[pos + 1 : pos + 3])
        sel_res = payload[pos + 3]
        uid_len = payload[pos + 4]
        if uid_len not in (4, 7, 10):
            raise PayloadError(f"unexpected UID length {uid_len}")
        pos += 5
        uid = bytes(payload[pos : pos + uid_len])
        if len(uid) != uid_len:
            raise PayloadError("InListPassiveTarget answer cut short in a UID")
        pos += uid_len
        ats = b""
        if sel_res & 0x20 and pos < len(payload):
            ats_len = payload[pos]
            if ats_len < 1 or len(payload) < pos + ats_len:
                raise PayloadError("InListPassiveTarget answer has a bad ATS length")
            ats = bytes(payload[pos + 1 : pos + ats_len])
            pos += ats_len
        targets.append(TypeATarget(number, sens_res, sel_res, uid, ats))
    if pos != len(payload):
        raise PayloadError(f"{len(payload) - pos} unexpected byte(s) after the targets")
    return targets
