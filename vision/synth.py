"""Synthetic overhead scenes: card faces on table textures, with the camera's faults.

Tests and benchmarks build their scenes here, so they never need real photographs:
card faces are painted from fonts (or taken from any image the caller passes), then
composited at an angle with perspective, a drop shadow, uneven light, glare, blur,
sensor noise and JPEG loss. Everything is driven by a numpy Generator, so a seed
gives the same scene every time.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import render
from vision.warp import warp_perspective

FACE_SIZE = (250, 350)  # width, height of a painted face (poker proportions)
_TABLES = (
    (40, 110, 30),  # green felt (BGR)
    (110, 60, 20),  # blue cloth
    (30, 30, 120),  # red baize
    (40, 80, 130),  # wood
    (45, 45, 45),  # dark grey
    (60, 40, 70),  # plum
    (90, 120, 150),  # light oak
)


#: Light tables, where card stock is barely brighter than the surface (BGR).
LIGHT_TABLES = (
    (170, 205, 225),  # beige wood
    (215, 225, 230),  # white cloth
    (190, 200, 205),  # pale grey laminate
)


def table(
    rng: np.random.Generator,
    size: tuple[int, int] = (1280, 960),
    colour: tuple[int, int, int] | None = None,
) -> np.ndarray:
    """A table texture: a base colour (``colour``, else a random dark or mid one) with
    weave or grain and a light falloff."""
    w, h = size
    pick = colour if colour is not None else _TABLES[rng.integers(len(_TABLES))]
    base = np.array(pick, np.float32) * (1.0 if colour is not None else rng.uniform(0.7, 1.3))
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    small = rng.normal(0, 1, (h // 8 + 1, w // 8 + 1)).astype(np.float32)
    grain = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    if rng.random() < 0.5:  # wood-like streaks
        streak = cv2.resize(rng.normal(0, 1, (h // 4 + 1, 8)).astype(np.float32), (w, h))
        grain = grain * 0.4 + streak * 1.2
    img += grain[:, :, None] * rng.uniform(4, 14)
    img += rng.normal(0, 4, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _index_glyphs(rank: str, suit: str, style: int) -> tuple[np.ndarray, np.ndarray]:
    fonts = render.truetype_fonts()
    text = render.rank_text(rank)
    if style >= 200:  # a German-pattern index: B (Bube) for the jack, D (Dame) for the queen
        text = {"J": "B", "Q": "D"}.get(text, text)
    if style >= 100:  # an unusual typeface, for trying out learning a deck
        r = render.text_mask_hershey(text, cv2.FONT_HERSHEY_SCRIPT_COMPLEX, 5, 2.2)
    elif fonts and style % 2 == 0:
        serif = [f for f in fonts if "Serif" in f and "Bold" in f] or list(fonts)
        r = render.text_mask_truetype(text, serif[style // 2 % len(serif)], 64)
    else:
        r = render.text_mask_hershey(text, render.HERSHEY[style % len(render.HERSHEY)], 6, 2.2)
    s = render.suit_mask_shape(suit, 64, variant=((style % 5) - 2) / 2)
    return r, s


def card_face(card: str, style: int = 0, size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """Paint a plain card face (BGR): index in two corners, pips or a box in the middle.

    ``card`` is card text (``AS``, ``TD``). ``style`` picks the index font, so tests can
    check that recognition is not tied to one typeface.
    """
    rank, suit = card[:-1], card[-1]
    w, h = size
    ink = (30, 30, 200) if suit in "HD" else (25, 25, 25)
    face = np.full((h, w, 3), (235, 240, 242), np.uint8)
    r_mask, s_mask = _index_glyphs(rank, suit, style)
    rh = int(h * 0.085)
    rw = max(1, int(r_mask.shape[1] * rh / r_mask.shape[0]))
    sw = int(w * 0.085)
    sh = max(1, int(s_mask.shape[0] * sw / s_mask.shape[1]))
    r_small = cv2.resize(r_mask, (rw, rh), interpolation=cv2.INTER_AREA)
    s_small = cv2.resize(s_mask, (sw, sh), interpolation=cv2.INTER_AREA)
    cx = int(w * 0.1)
    corner = np.full((int(h * 0.3), int(w * 0.24), 3), (235, 240, 242), np.uint8)
    y0 = int(h * 0.04)
    for m, y in ((r_small, y0), (s_small, y0 + rh + int(h * 0.02))):
        x = max(1, cx - m.shape[1] // 2)
        region = corner[y : y + m.shape[0], x : x + m.shape[1]]
        a = (m[: region.shape[0], : region.shape[1]].astype(np.float32) / 255)[:, :, None]
        region[:] = (region * (1 - a) + np.array(ink) * a).astype(np.uint8)
    ch, cw = corner.shape[:2]
    face[:ch, :cw] = corner
    face[h - ch :, w - cw :] = cv2.rotate(corner, cv2.ROTATE_180)
    # the middle: a framed picture or a large pip, so the centre is never blank
    cv2.rectangle(face, (int(w * 0.26), int(h * 0.14)), (int(w * 0.74), int(h * 0.86)), ink, 2)
    big = cv2.resize(s_mask, (int(w * 0.3), int(w * 0.3 * s_mask.shape[0] / s_mask.shape[1])))
    by, bx = (h - big.shape[0]) // 2, (w - big.shape[1]) // 2
    region = face[by : by + big.shape[0], bx : bx + big.shape[1]]
    a = (big.astype(np.float32) / 255)[:, :, None]
    region[:] = (region * (1 - a) + np.array(ink) * a).astype(np.uint8)
    return face


def card_back(size: tuple[int, int] = FACE_SIZE) -> np.ndarray:
    """A patterned back, as a face-down card shows."""
    w, h = size
    back = np.full((h, w, 3), (240, 240, 240), np.uint8)
    cv2.rectangle(back, (10, 10), (w - 11, h - 11), (60, 40, 170), -1)
    # a diagonal lattice, drawn by formula rather than cv2.line, whose clipping of lines
    # that start outside the image differs between OpenCV releases
    ys, xs = np.mgrid[10 : h - 10, 0:w].astype(np.float32)
    run = (ys - 10) * (h / (h - 20))
    on = ((xs - run) % 14 < 2) | ((xs + run - h) % 14 < 2)
    back[10 : h - 10][on] = (200, 190, 230)
    return back


def rounded_alpha(w: int, h: int, radius_frac: float = 0.06) -> np.ndarray:
    a = np.zeros((h, w), np.uint8)
    r = int(min(w, h) * radius_frac)
    cv2.rectangle(a, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(a, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(a, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return a


@dataclass(frozen=True)
class Placed:
    """Where a card landed in a scene: its corners (clockwise from the face's top-left)."""

    card: str | None
    quad: np.ndarray


#: Pixels round a card's box that its drop shadow can darken.
_SHADOW_ROOM = 16


def place(
    scene: np.ndarray,
    face: np.ndarray,
    center: tuple[float, float],
    height_px: float,
    angle_deg: float,
    rng: np.random.Generator,
    tilt: float = 0.08,
    card: str | None = None,
) -> Placed:
    """Composite ``face`` onto ``scene`` in place: rotated, foreshortened, with a shadow."""
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    s = height_px / fh
    t = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    pts = (src - [fw / 2, fh / 2]) * s
    pts = pts @ rot.T
    pts += rng.uniform(-tilt, tilt, (4, 2)).astype(np.float32) * height_px * 0.5
    dst = (pts + center).astype(np.float32)
    # only the card's box, with room for its shadow, is drawn (the same pixels as a
    # whole-frame warp: the shadow's blur reaches about 10 px, and it is 0 beyond that)
    sh, sw = scene.shape[:2]
    x0, y0 = np.maximum(np.floor(dst.min(axis=0)).astype(int) - _SHADOW_ROOM, 0)
    x1, y1 = np.minimum(np.ceil(dst.max(axis=0)).astype(int) + _SHADOW_ROOM, (sw, sh))
    if x1 <= x0 or y1 <= y0:
        return Placed(card, dst)
    box = (slice(y0, y1), slice(x0, x1))
    m = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ cv2.getPerspectiveTransform(src, dst)
    size = (int(x1 - x0), int(y1 - y0))
    alpha = warp_perspective(rounded_alpha(fw, fh), m, size).astype(np.float32) / 255
    # drop shadow: a dark halo a few pixels out, which is also the seam between two cards
    shadow = cv2.GaussianBlur(cv2.dilate(alpha, np.ones((5, 5), np.uint8)), (0, 0), 2.0)
    region = scene[box]
    region[:] = (region * (1 - 0.45 * shadow[:, :, None])).astype(np.uint8)
    warped = warp_perspective(face, m, size)
    a = alpha[:, :, None]
    region[:] = (region * (1 - a) + warped * a).astype(np.uint8)
    return Placed(card, dst)


def camera(scene: np.ndarray, rng: np.random.Generator, glare: bool = True) -> np.ndarray:
    """Uneven light, optional glare spot, blur, sensor noise and JPEG loss."""
    h, w = scene.shape[:2]
    img = scene.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.25, 0.25, 2)
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    img *= (light * rng.uniform(0.75, 1.15))[:, :, None]
    img *= rng.uniform(0.9, 1.1, 3).astype(np.float32)  # colour cast
    if glare:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.15) * w
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        img += spot[:, :, None] * rng.uniform(20, 70)
    k = rng.uniform(0.3, 1.4)
    img = cv2.GaussianBlur(img, (0, 0), k)
    img += rng.normal(0, rng.uniform(1, 5), img.shape).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 95))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@dataclass(frozen=True)
class CardSpec:
    """A card to lay in a scene: ``card`` None lays a face-down back."""

    card: str | None
    center: tuple[float, float]
    height_px: float = 300.0
    angle_deg: float = 0.0
    style: int = 0


def scene(
    cards: list[CardSpec],
    seed: int = 0,
    size: tuple[int, int] = (1280, 960),
    glare: bool = True,
    table_colour: tuple[int, int, int] | None = None,
) -> tuple[np.ndarray, list[Placed]]:
    """A whole camera frame: cards laid in order (later ones on top) on a random table."""
    frame, _, placed = scene_and_empty(cards, seed, size, glare, table_colour)
    return frame, placed


def scene_and_empty(
    cards: list[CardSpec],
    seed: int = 0,
    size: tuple[int, int] = (1280, 960),
    glare: bool = True,
    table_colour: tuple[int, int, int] | None = None,
) -> tuple[np.ndarray, np.ndarray, list[Placed]]:
    """A scene and the same table empty, seen by the same camera: what calibration
    captures (the empty table) and what play shows."""
    rng = np.random.default_rng(seed)
    empty = table(rng, size, table_colour)
    img = empty.copy()
    placed = []
    for spec in cards:
        face = card_face(spec.card, spec.style) if spec.card else card_back()
        placed.append(
            place(img, face, spec.center, spec.height_px, spec.angle_deg, rng, card=spec.card)
        )
    state = rng.bit_generator.state
    frame = camera(img, rng, glare=glare)
    rng.bit_generator.state = state
    return frame, camera(empty, rng, glare=glare), placed


def a_moment_later(
    frame: np.ndarray, rng: np.random.Generator, noise: float = 4.0, quality: int = 80
) -> np.ndarray:
    """The same view a moment later, as a camera gives it again: fresh sensor noise
    (``noise``, sigma in grey levels) and JPEG loss (``quality``). What a still table
    looks like from frame to frame, and what a calibration's capture of the empty table
    is to a frame of play."""
    noisy = np.clip(frame.astype(np.float32) + rng.normal(0, noise, frame.shape), 0, 255)
    ok, buf = cv2.imencode(".jpg", noisy.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def a_card_later(
    cards: list[CardSpec],
    seed: int = 0,
    size: tuple[int, int] = (1280, 960),
    table_colour: tuple[int, int, int] | None = None,
) -> tuple[np.ndarray, np.ndarray, list[Placed]]:
    """Two frames of one table under one camera: all but the last of ``cards`` lying on
    it, then a moment later the last put down too (the same light and glare, fresh sensor
    noise and JPEG loss), as a camera sees a play. ``table_colour``: as :func:`table`."""
    rng = np.random.default_rng(seed)
    img = table(rng, size, table_colour)
    placed = []
    for spec in cards[:-1]:
        face = card_face(spec.card, spec.style) if spec.card else card_back()
        placed.append(
            place(img, face, spec.center, spec.height_px, spec.angle_deg, rng, card=spec.card)
        )
    later = img.copy()
    last = cards[-1]
    face = card_face(last.card, last.style) if last.card else card_back()
    drop = np.random.default_rng(seed + 1)  # the new card's own draws leave the camera's
    placed.append(
        place(later, face, last.center, last.height_px, last.angle_deg, drop, card=last.card)
    )
    state = rng.bit_generator.state
    before = camera(img, rng)
    rng.bit_generator.state = state
    after = camera(later, rng)
    # the sensor's noise a moment later: fresh, on top of the same light
    noisy = after.astype(np.float32) + drop.normal(0, 3, after.shape).astype(np.float32)
    jpeg = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8))[1]
    return before, cv2.imdecode(jpeg, cv2.IMREAD_COLOR), placed


def tilted_view(
    degrees: float,
    area: tuple[float, float, float, float],
    frame: tuple[int, int] = (1280, 960),
    table_size: tuple[int, int] = (1280, 960),
    focal: float = 1000.0,
) -> np.ndarray:
    """The homography from a top-down picture of the table (``table_size`` pixels) to the
    frame of a pinhole camera ``degrees`` from vertical: over the table's middle at
    ``focal`` table pixels from it, turned about the left-right axis so the bottom of
    the picture is nearest; its view scaled and shifted so ``area`` (x0, y0, x1, y1 of
    the picture) fills ``frame``. Far cards come out smaller than near ones, and
    squashed front to back: a camera on a shelf or a tripod. (``focal`` of 1000 for a
    1280 px wide view is a webcam's field, about 65° across.)"""
    t = np.deg2rad(degrees)
    eye = np.array([0.0, focal * np.sin(t), focal * np.cos(t)])
    forward = -eye / np.linalg.norm(eye)
    right = np.array([1.0, 0.0, 0.0])
    # the picture's x right and y toward the near side (down in the picture): the
    # camera's down is right x forward, so the frame is not mirrored
    down = np.cross(right, forward)
    rot = np.stack([right, down, forward])  # table -> camera
    k = np.array([[focal, 0, 0], [0, focal, 0], [0, 0, 1]], np.float64)
    # a table point (x, y, 0) in camera coordinates is rot @ ((x, y, 0) - eye)
    plane = np.column_stack([rot[:, 0], rot[:, 1], -rot @ eye])
    cx, cy = table_size[0] / 2, table_size[1] / 2
    h0 = k @ plane @ np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], np.float64)
    x0, y0, x1, y1 = area
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    seen = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), h0).reshape(-1, 2)
    lo, hi = seen.min(axis=0), seen.max(axis=0)
    w, h = frame
    s = min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    mid = (lo + hi) / 2
    fit = np.array([[s, 0, w / 2 - s * mid[0]], [0, s, h / 2 - s * mid[1]], [0, 0, 1]])
    return fit @ h0


def lamp(frame: np.ndarray, kelvin: int) -> np.ndarray:
    """The frame as lit by a lamp of colour temperature ``kelvin`` instead of daylight:
    2700 K is a tungsten bulb (warm, little blue), 8000 K a cool LED (blue cast)."""
    warm = np.clip((6500 - kelvin) / 3800, -1, 1)
    gains = (
        (1 - 0.55 * warm, 1 - 0.15 * warm, 1.0)
        if warm > 0
        else (1.0, 1 + 0.1 * warm, 1 + 0.35 * warm)
    )
    return np.clip(frame.astype(np.float32) * np.array(gains, np.float32), 0, 255).astype(np.uint8)
