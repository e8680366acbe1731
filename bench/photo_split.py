"""The development / held-out split of the real-photo set (``shared/vision/phone-photos-ccby``).

The figures that matter are measured on photographs never looked at while developing, as
a club's own table would be. The set holds three shooting series, each on its own
device and deck; within each series the photos taken *last* are held out, so the held-out
part has surfaces, light and hands the development part shares only by chance:

- phone, white standard deck (``IMG_20220921_HHMMSS``): held out from 20:05:00 on;
- phone, black-and-gold deck (``IMG_77NN`` / ``IMG_78NN``): held out from number 7790 on;
- webcam, white deck fanned on a desk (``WIN_YYYYMMDD_HH_MM_SS``): held out from
  2024-06-27 17:12:00 on (which includes every photo of 2024-06-30).

The rule is by file name only, so anyone can re-derive it; ``docs/camera.md`` states it.
"""

from __future__ import annotations

import re

_PHONE_WHITE = re.compile(r"IMG_(\d{8})_(\d{6})")
_PHONE_BLACK = re.compile(r"IMG_(\d{4})_JPG")
_WEBCAM = re.compile(r"WIN_(\d{8})_(\d\d)_(\d\d)_(\d\d)")

PARTS = ("all", "dev", "held")


def held_out(name: str) -> bool:
    """True if the photo ``name`` (a file name from the set) belongs to the held-out part."""
    m = _PHONE_WHITE.search(name)
    if m:
        return m.group(2) >= "200500"
    m = _PHONE_BLACK.search(name)
    if m:
        return int(m.group(1)) >= 7790
    m = _WEBCAM.search(name)
    if m:
        return m.group(1) + "".join(m.groups()[1:]) >= "20240627171200"
    return False


def in_part(name: str, part: str) -> bool:
    """Whether ``name`` is in ``part`` (``all``, ``dev`` or ``held``)."""
    if part == "all":
        return True
    return held_out(name) == (part == "held")
