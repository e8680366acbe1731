"""A 128×64 OLED for tables without a screen: the score at a glance, revokes in reverse.

The table view in the browser is the full picture; this is the minimum a table needs
when there is no HDMI screen: courts per team, the seven-hand streak as seven marks,
tricks this hand, and a revoke alert drawn as an inverted band nobody can miss.

luma.oled is optional (the ``oled`` extra): nothing here imports it, or Pillow, until
a screen is actually built, so the service starts without them.

Layout (pixels)::

    y  0–20  A <courts>      courts      <courts> B
    y 23–32  streak  [■][■][■][ ][ ][ ][ ]  A
    y 36–45  tricks  A 4   B 2
    y 48–63  ███ alert text, inverted ███   (blank when there is no alert)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
#: Hands in a row that win a court outright (the "seven" in the streak).
STREAK_LENGTH = 7
TEAM_LABELS = ("A", "B")
#: Where the alert band sits, as (left, top, right, bottom), inclusive.
ALERT_BOX = (0, 48, WIDTH - 1, HEIGHT - 1)
STREAK_TOP, STREAK_BOTTOM = 23, 32
TRICKS_TOP = 36
_STREAK_X0, _MARK_W, _MARK_GAP = 36, 8, 3


@dataclass(frozen=True, slots=True)
class OledSummary:
    """What the small screen shows: everything is public table state, nothing hidden."""

    courts: tuple[int, int] = (0, 0)
    #: Team on a run of won hands (0 or 1), or None before any hand is won.
    streak_team: int | None = None
    #: Hands in a row that team has won, 0–7.
    streak: int = 0
    tricks: tuple[int, int] = (0, 0)
    #: A revoke alert ("REVOKE seat 2"), or None.
    alert: str | None = None

    def __post_init__(self) -> None:
        if not 0 <= self.streak <= STREAK_LENGTH:
            raise ValueError(f"streak must be 0–{STREAK_LENGTH}, not {self.streak}")
        if (self.streak_team is None) != (self.streak == 0):
            raise ValueError("a streak needs a team, and a team needs a streak")
        if self.streak_team not in (None, 0, 1):
            raise ValueError(f"streak_team must be 0, 1 or None, not {self.streak_team!r}")
        if min(*self.courts, *self.tricks) < 0:
            raise ValueError("courts and tricks cannot be negative")


def _font(size: int) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    from PIL import ImageFont

    try:
        return ImageFont.load_default(size)
    except (TypeError, OSError, ImportError):  # Pillow without FreeType: one bitmap size
        return ImageFont.load_default()


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Any, width: int) -> str:
    """``text``, cut with an ellipsis until it fits ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def render(summary: OledSummary, size: tuple[int, int] = (WIDTH, HEIGHT)) -> Image.Image:
    """Draw ``summary`` as a 1-bit image of ``size`` (128×64 for the supported panels)."""
    from PIL import Image, ImageDraw

    if size != (WIDTH, HEIGHT):
        raise ValueError(f"the layout is for {WIDTH}×{HEIGHT} panels, not {size[0]}×{size[1]}")
    image = Image.new("1", size, 0)
    draw = ImageDraw.Draw(image)
    big, small = _font(18), _font(10)

    # Courts: team A at the left, team B at the right, the word between.
    a_courts, b_courts = summary.courts
    draw.text((0, 0), f"{TEAM_LABELS[0]} {a_courts}", font=big, fill=1, anchor="la")
    draw.text((WIDTH - 1, 0), f"{b_courts} {TEAM_LABELS[1]}", font=big, fill=1, anchor="ra")
    draw.text((WIDTH // 2, 6), "courts", font=small, fill=1, anchor="ma")

    # Streak: seven marks, filled for each hand in a row, and whose run it is.
    draw.text((0, STREAK_TOP), "streak", font=small, fill=1)
    for i in range(STREAK_LENGTH):
        x = _STREAK_X0 + i * (_MARK_W + _MARK_GAP)
        box = (x, STREAK_TOP, x + _MARK_W - 1, STREAK_BOTTOM)
        draw.rectangle(box, outline=1, fill=1 if i < summary.streak else 0)
    if summary.streak_team is not None:
        draw.text(
            (WIDTH - 1, STREAK_TOP),
            TEAM_LABELS[summary.streak_team],
            font=small,
            fill=1,
            anchor="ra",
        )

    # Tricks this hand.
    draw.text((0, TRICKS_TOP), "tricks", font=small, fill=1)
    for team, x in ((0, _STREAK_X0), (1, _STREAK_X0 + 44)):
        text = f"{TEAM_LABELS[team]}  {summary.tricks[team]}"
        draw.text((x, TRICKS_TOP), text, font=small, fill=1)

    # Alert: a lit band with dark text, so it reads as "something is wrong" from afar.
    if summary.alert:
        draw.rectangle(ALERT_BOX, fill=1)
        left, top, right, bottom = ALERT_BOX
        text = _fit(draw, summary.alert, small, right - left - 4)
        draw.text(
            ((left + right) // 2, (top + bottom) // 2 + 1), text, font=small, fill=0, anchor="mm"
        )
    return image


class OledScreen:
    """Shows summaries on a luma device (a real SSD1306/SH1106, or luma's ``dummy``)."""

    def __init__(self, device: Any) -> None:
        self.device = device
        self._last: OledSummary | None = None

    def show(self, summary: OledSummary) -> None:
        """Draw ``summary``; skips the I2C transfer when nothing changed (it takes ~25 ms)."""
        if summary == self._last:
            return
        image = render(summary, tuple(self.device.size))
        self.device.display(image.convert(self.device.mode))
        self._last = summary

    def clear(self) -> None:
        """Blank the panel (an OLED left lit burns in)."""
        self.device.clear()
        self._last = None


def open_device(
    kind: str = "ssd1306", *, port: int = 1, address: int = 0x3C, rotate: int = 0
) -> Any:
    """Build the luma device: ``ssd1306`` or ``sh1106`` on I2C bus ``port``, or ``dummy``.

    The dummy device keeps the last image in ``.image``: tests and the simulator use it
    on machines without an I2C bus.
    """
    if kind == "dummy":
        from luma.core.device import dummy

        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if kind not in ("ssd1306", "sh1106"):
        raise ValueError(f"unknown OLED kind {kind!r} (ssd1306, sh1106 or dummy)")
    from luma.core.interface.serial import i2c
    from luma.oled import device as oled_devices

    serial = i2c(port=port, address=address)
    return getattr(oled_devices, kind)(serial, width=WIDTH, height=HEIGHT, rotate=rotate)
