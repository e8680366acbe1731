"""Rebuild ``vision/data/glyphs.npz`` from glyphs rendered on this machine.

    .venv/bin/python -m vision.train [--out PATH] [--seed N] [--black]

Nothing is downloaded: ranks come from every upright Latin font found locally and
OpenCV's Hershey fonts, suits from every font that draws the four suit symbols and from
geometric shapes. Card indices are set in all manner of typefaces, so the more fonts the
better: the committed weights were trained with the Debian font packages listed in
``TRAINING_FONT_PACKAGES`` installed (with none of them, DejaVu/Liberation or
matplotlib's DejaVu still give a working model). Each glyph is distorted
the way a camera distorts an index (tilt, stretch, stroke weight, low resolution, blur,
threshold) and then framed by the same ``vision.glyphs`` code used at run time.
Needs Pillow for TrueType rendering (installed with the test extras); without it only
the built-in fonts are used. Takes about a minute on two cores.

Three heads are trained: rank and suit from thresholded glyphs, and a black-suit head
(spade or club) from a suit's grey levels (:func:`degrade_soft`), which keeps the lobes
of a soft club that a threshold runs together; it also learns the real soft suits of
``vision/data/real_suits.npz`` (:data:`REAL_SUITS`), where that file is there.
``--black`` rebuilds only that head onto the weights at ``--out``, leaving the other two
as they are.
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import cv2
import numpy as np

from vision import glyphs, render
from vision.model import BLACK_SUITS, DEFAULT_WEIGHTS, RANKS, SUITS, GlyphModel, Mlp, softmax

#: Debian packages whose fonts the committed weights were trained with (apt-get install).
TRAINING_FONT_PACKAGES = (
    "fonts-dejavu-core fonts-dejavu-extra fonts-liberation fonts-urw-base35 "
    "fonts-freefont-ttf fonts-noto-core fonts-stix fonts-symbola fonts-opensymbol "
    "fonts-linuxlibertine fonts-roboto-unhinted fonts-open-sans fonts-crosextra-carlito "
    "fonts-crosextra-caladea fonts-lato fonts-cantarell fonts-ebgaramond fonts-inconsolata "
    "fonts-oldstandard fonts-sil-gentium fonts-comfortaa fonts-adf-accanthis "
    "fonts-adf-gillius fonts-adf-universalis fonts-firacode fonts-hack fonts-noto-mono"
)
_FONT_ROOTS = ("/usr/share/fonts", "/usr/local/share/fonts")
#: Styles no index is printed in, and font families with no Latin letters worth having.
_SKIP_STYLE = ("italic", "oblique", "thin", "hairline", "extralight", "light", "math")
_SLANTED = re.compile(r"(Ita|It\.|_R?B?Z?I\.|_K\.)")  # BdIta, LinLibertine_RI, keycaps
_SKIP_LATIN = ("symbol", "emoji", "opensymbol", "ancient", "music", "unifont", "d050000l")
_LATIN_NOTO = ("NotoSans-", "NotoSerif-", "NotoSansMono-", "NotoSansDisplay-", "NotoSerifDisplay-")


def _font_files() -> list[str]:
    found: list[str] = []
    for root in _FONT_ROOTS:
        for ext in ("ttf", "otf"):
            found += glob.glob(os.path.join(root, "**", f"*.{ext}"), recursive=True)
    found += list(render.truetype_fonts())  # matplotlib's DejaVu when the system has none
    return sorted(set(found))


def _draws(font_path: str, text: str) -> bool:
    """Whether the font really has ``text``: not empty, and not its missing-glyph box."""
    try:
        got = render.text_mask_truetype(text, font_path)
        missing = render.text_mask_truetype("\ue000", font_path)
    except (OSError, ValueError):
        return False
    if not got.any():
        return False
    return got.shape != missing.shape or bool((got != missing).any())


def training_fonts() -> tuple[list[str], list[str]]:
    """(fonts for ranks, fonts for suits) among those installed.

    Rank fonts must be upright, not hairline, and draw every rank; a Noto font counts only
    for its Latin families (the script-specific ones repeat the same Latin letters).
    Suit fonts are any that draw all four suit symbols.
    """
    rank_fonts, suit_fonts = [], []
    for path in _font_files():
        name = os.path.basename(path)
        low = name.lower()
        if any(k in low for k in _SKIP_STYLE) or _SLANTED.search(name):
            continue
        if all(_draws(path, ch) for ch in render.SUIT_CHARS.values()):
            suit_fonts.append(path)
        if any(k in low for k in _SKIP_LATIN):
            continue
        if name.startswith("Noto") and not name.startswith(_LATIN_NOTO):
            continue
        if all(_draws(path, r) for r in ("A", "K", "Q", "J", "10", "8")):
            rank_fonts.append(path)
    return rank_fonts, suit_fonts


#: How often a training glyph is seen out of focus, and how much (sigma as a share of
#: the glyph's height). A webcam's or a phone's soft index is blurred over a good part
#: of the glyph, and where the ink is then cut decides whether strokes come out fat or
#: thin. The 3×3 blur in :func:`degrade` is only a pixel's softness; without this the
#: model took a soft club (its three lobes run together into a round head on a stem)
#: for a spade. Blurred further (40 % of glyphs, up to 15 %), a soft spade and a soft
#: club became one shape, and which way the model then leant changed from one training
#: run to the next, while blobs of table grain began to pass for glyphs.
Defocus = tuple[float, tuple[float, float]]
DEFOCUS: Defocus = (0.3, (0.03, 0.1))


def degrade(
    mask: np.ndarray, rng: np.random.Generator, defocus: Defocus = (0.0, (0.0, 0.0))
) -> np.ndarray:
    """A high-resolution ink mask as a camera might see it: a small, rough binary glyph."""
    m = mask.astype(np.float32) / 255.0
    h, w = m.shape
    pad = max(h, w) // 2
    m = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    cx, cy = m.shape[1] / 2, m.shape[0] / 2
    ang = rng.uniform(-6, 6)
    a = cv2.getRotationMatrix2D((cx, cy), ang, 1.0)
    sx = rng.uniform(0.55, 1.3) if w > 0.9 * h else rng.uniform(0.7, 1.3)
    shear = rng.uniform(-0.12, 0.12)
    s = np.array([[sx, shear, 0], [0, 1, 0]], np.float32)
    full = s @ np.vstack([a, [0, 0, 1]])
    full[:, 2] += [cx - (full[:, :2] @ [cx, cy])[0], cy - (full[:, :2] @ [cx, cy])[1]]
    m = cv2.warpAffine(m, full, (m.shape[1], m.shape[0]), flags=cv2.INTER_LINEAR)
    k = int(round(rng.uniform(-0.05, 0.06) * h))
    if k:
        ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (abs(k) + 1, abs(k) + 1))
        m = cv2.dilate(m, ker) if k > 0 else cv2.erode(m, ker)
    target_h = rng.uniform(9, 40)
    f = target_h / h
    small = cv2.resize(m, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), rng.uniform(0.1, 0.9))
    if rng.random() < defocus[0]:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(*defocus[1]) * target_h)
    small += rng.normal(0, rng.uniform(0, 0.08), small.shape).astype(np.float32)
    return (small > rng.uniform(0.35, 0.65)).astype(np.uint8) * 255


#: How far a soft suit is stretched across (its width times this) and how its grey
#: levels are bent (ink score to this power) for the black-suit head. A corner found
#: from its index pair alone is straightened from two blobs, so its suit comes out wider
#: or narrower than printed; and a camera's tone curve fattens a soft glyph's faint
#: edge (lobes run together) or thins it. With 0.75-1.35 and no bending the head took
#: 29 of 79 soft webcam clubs for spades (earlier development scenes), with these 10.
SOFT_STRETCH = (0.7, 1.6)
SOFT_GAMMA = (0.4, 2.5)


def degrade_soft(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A high-resolution suit mask as a soft camera's ink score: tilted and stretched
    (:data:`SOFT_STRETCH`), shrunk to a few pixels, blurred, its grey levels bent
    (:data:`SOFT_GAMMA`), then enlarged back to the size a rectified corner gives it
    (the reader warps a small card up), low contrast and noisy, and never thresholded
    (:func:`vision.glyphs.normalise_soft` reads it grey)."""
    m = mask.astype(np.float32) / 255.0
    h, w = m.shape
    pad = max(h, w) // 2
    m = cv2.copyMakeBorder(m, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    cx, cy = m.shape[1] / 2, m.shape[0] / 2
    a = cv2.getRotationMatrix2D((cx, cy), rng.uniform(-20, 20), 1.0)
    s = np.array([[rng.uniform(*SOFT_STRETCH), rng.uniform(-0.12, 0.12), 0], [0, 1, 0]])
    full = s @ np.vstack([a, [0, 0, 1]])
    full[:, 2] += [cx - (full[:, :2] @ [cx, cy])[0], cy - (full[:, :2] @ [cx, cy])[1]]
    m = cv2.warpAffine(m, full, (m.shape[1], m.shape[0]), flags=cv2.INTER_LINEAR)
    native = rng.uniform(7, 26)
    small = cv2.resize(m, None, fx=native / h, fy=native / h, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.3, 1.6))
    small = np.clip(small, 0.0, 1.0) ** rng.uniform(*SOFT_GAMMA)
    up = rng.uniform(18, 26) / native
    big = cv2.resize(small, None, fx=up, fy=up, interpolation=cv2.INTER_LINEAR)
    big = big * rng.uniform(60, 180) + rng.normal(0, rng.uniform(0, 8), big.shape)
    return np.clip(big, 0, 255).astype(np.uint8)


def soft_set(
    suits: dict[str, list[np.ndarray]], rng: np.random.Generator, per_source: int
) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels (:data:`BLACK_SUITS`) of ``per_source`` soft glyphs of each
    spade and club source, framed by :func:`vision.glyphs.normalise_soft`."""
    xs, ys = [], []
    for label, name in enumerate(BLACK_SUITS):
        for m in suits[name]:
            for _ in range(per_source):
                g = glyphs.normalise_soft(degrade_soft(m, rng))
                if g is not None:
                    xs.append(g)
                    ys.append(label)
    return glyphs.features(np.stack(xs)), np.array(ys, np.int32)


#: Real soft black suits (grey ink-score patches cut by ``bench/real_suits.py`` from the
#: real-photo set's development part, CC BY 4.0, credit in ``vision/data/README.md``):
#: the black-suit head learns them beside the rendered ones. Rendered soft glyphs alone
#: read a webcam's real soft suits as the other black suit about one time in six
#: (development photos: trained on the earlier ones, 85 % right on the later ones; with
#: them 98 %).
REAL_SUITS = DEFAULT_WEIGHTS.with_name("real_suits.npz")
#: Each real glyph is learned this many times (the first as it is, the rest a little
#: turned, scaled, shifted, its contrast changed and noise added): the set holds a few
#: hundred against the rendered set's thousands. At 10 the later webcam suits read
#: 95-97 %, at 30 98-99 % (two seeds).
REAL_REPEATS = 30


def real_soft_set(
    path: Path, rng: np.random.Generator, repeats: int = REAL_REPEATS
) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels (:data:`BLACK_SUITS`) of the real soft suits in ``path``
    (keys ``S_…`` and ``C_…``, each a grey ink-score patch), framed by
    :func:`vision.glyphs.normalise_soft` and learned ``repeats`` times each."""
    with np.load(path) as data:
        keys = sorted(k for k in data.files if k[:2] in ("S_", "C_"))
        framed = [(glyphs.normalise_soft(data[k]), BLACK_SUITS.index(k[0])) for k in keys]
    framed = [(g, label) for g, label in framed if g is not None]
    xs = [g if r == 0 else _jittered(g, rng) for r in range(repeats) for g, _ in framed]
    ys = [label for _ in range(repeats) for _, label in framed]
    return glyphs.features(np.stack(xs)), np.array(ys, np.int32)


def _jittered(glyph: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A framed grey glyph a little turned, scaled and shifted, its contrast changed and
    noise added: another look at one real suit, not another suit."""
    h, w = glyph.shape
    a = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-6, 6), rng.uniform(0.92, 1.05))
    a[:, 2] += rng.uniform(-1, 1, 2)
    out = cv2.warpAffine(glyph, a, (w, h), flags=cv2.INTER_LINEAR)
    out = out * rng.uniform(0.85, 1.1) + rng.normal(0, 0.03, out.shape)
    return np.clip(out, 0, 1).astype(np.float32)


def train_black(
    seed: int = 7, per_source: int = 60, epochs: int = 30, real: Path | None = REAL_SUITS
) -> tuple[Mlp, float]:
    """The black-suit head (spade or club from grey levels), and its accuracy on freshly
    degraded glyphs. Its own random stream, so it can be rebuilt alone (``--black``)
    without touching the rank and suit heads. The real soft suits at ``real`` are learned
    too where the file is there (None: rendered glyphs only)."""
    rng = np.random.default_rng(seed + 1000)
    suits = suit_sources()
    x, y = soft_set(suits, rng, per_source)
    if real is not None and real.is_file():
        rx, ry = real_soft_set(real, rng)
        x, y = np.concatenate([x, rx]), np.concatenate([y, ry])
    head = fit(x, y, 2, 32, rng, epochs)
    tx, ty = soft_set(suits, rng, 1)
    return head, float((head.proba(tx).argmax(1) == ty).mean())


def rank_sources(fonts: list[str] | None = None) -> dict[str, list[np.ndarray]]:
    """High-resolution ink masks for each rank, one per font and style."""
    out: dict[str, list[np.ndarray]] = {r: [] for r in RANKS if r != "junk"}
    draws: list[Callable[[str], np.ndarray]] = []
    try:
        import PIL  # noqa: F401

        for path in fonts if fonts is not None else training_fonts()[0]:
            draws.append(lambda t, p=path: render.text_mask_truetype(t, p))
    except ImportError:
        pass
    for hf in render.HERSHEY:
        for th in (3, 5, 7):
            draws.append(lambda t, f=hf, k=th: render.text_mask_hershey(t, f, k))
    for draw in draws:
        for r in out:
            out[r].append(draw(r))
        # a ten printed tight, as many decks squeeze it into the index column: with a
        # hairline between the digits, and with the digits run together
        one, zero = draw("1"), draw("0")
        hh = max(one.shape[0], zero.shape[0])
        for gap in (max(1, hh // 25), -max(1, hh // 30)):
            canvas = np.zeros((hh, one.shape[1] + gap + zero.shape[1]), np.uint8)
            canvas[hh - one.shape[0] :, : one.shape[1]] = one
            right = canvas[hh - zero.shape[0] :, one.shape[1] + gap :]
            right[:] = np.maximum(right, zero)
            out["10"].append(canvas)
    for v in np.linspace(-1, 1, 16):
        out["3"].append(render.flat_top_three(64, float(v)))
    return out


def suit_sources(fonts: list[str] | None = None) -> dict[str, list[np.ndarray]]:
    out: dict[str, list[np.ndarray]] = {s: [] for s in SUITS if s != "junk"}
    try:
        import PIL  # noqa: F401

        for path in fonts if fonts is not None else training_fonts()[1]:
            for s, ch in render.SUIT_CHARS.items():
                out[s].append(render.text_mask_truetype(ch, path))
    except ImportError:
        pass
    for v in np.linspace(-1, 1, 7):
        for s in out:
            out[s].append(render.suit_mask_shape(s, 64, float(v)))
    return out


def junk_sources(
    rng: np.random.Generator, others: Iterable[np.ndarray], n: int
) -> list[np.ndarray]:
    """Things that are not the glyph a head expects: other glyphs, halves of glyphs, blobs."""
    others = list(others)
    out: list[np.ndarray] = []
    for i in range(n):
        kind = i % 4
        if kind == 0:
            out.append(others[rng.integers(len(others))])
        elif kind == 1:  # a fragment of a glyph
            g = others[rng.integers(len(others))]
            h, w = g.shape
            y0, x0 = rng.integers(0, h // 2 + 1), rng.integers(0, w // 2 + 1)
            out.append(g[y0 : y0 + h // 2 + 1, x0 : x0 + w // 2 + 1])
        elif kind == 2:  # a random scribble
            img = np.zeros((64, 64), np.uint8)
            pts = rng.integers(4, 60, (rng.integers(3, 8), 2)).astype(np.int32)
            cv2.polylines(img, [pts], False, 255, int(rng.integers(2, 9)))
            out.append(img)
        else:  # a solid block or bar
            h, w = rng.integers(6, 64), rng.integers(6, 64)
            out.append(np.full((h, w), 255, np.uint8))
    return [o for o in out if o.any()]


def make_set(
    sources: dict[str, list[np.ndarray]],
    classes: tuple[str, ...],
    per_source: int,
    junk: list[np.ndarray],
    rng,
    defocus: Defocus = (0.0, (0.0, 0.0)),
) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for name, masks in sources.items():
        for m in masks:
            for _ in range(per_source):
                xs.append(glyphs.normalise(degrade(m, rng, defocus)))
                ys.append(classes.index(name))
    for m in junk:
        xs.append(glyphs.normalise(degrade(m, rng, defocus)))
        ys.append(classes.index("junk"))
    return glyphs.features(np.stack(xs)), np.array(ys, np.int32)


def fit(x: np.ndarray, y: np.ndarray, n_classes: int, hidden: int, rng, epochs: int = 40) -> Mlp:
    """Plain Adam on cross-entropy with a little weight decay; numpy is plenty for this."""
    d = x.shape[1]
    params = [
        rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32),
        np.zeros(hidden, np.float32),
        rng.normal(0, np.sqrt(2 / hidden), (hidden, n_classes)).astype(np.float32),
        np.zeros(n_classes, np.float32),
    ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    lr, b1, b2, wd, step = 2e-3, 0.9, 0.999, 1e-4, 0
    onehot = np.eye(n_classes, dtype=np.float32)[y] * 0.95 + 0.05 / n_classes
    for epoch in range(epochs):
        order = rng.permutation(len(x))
        for i in range(0, len(x), 128):
            bi = order[i : i + 128]
            xb, tb = x[bi], onehot[bi]
            h_pre = xb @ params[0] + params[1]
            h = np.maximum(h_pre, 0)
            p = softmax(h @ params[2] + params[3])
            g_out = (p - tb) / len(bi)
            g_w2 = h.T @ g_out + wd * params[2]
            g_b2 = g_out.sum(0)
            g_h = (g_out @ params[2].T) * (h_pre > 0)
            g_w1 = xb.T @ g_h + wd * params[0]
            g_b1 = g_h.sum(0)
            step += 1
            for j, g in enumerate((g_w1, g_b1, g_w2, g_b2)):
                m[j] = b1 * m[j] + (1 - b1) * g
                v[j] = b2 * v[j] + (1 - b2) * g * g
                mh = m[j] / (1 - b1**step)
                vh = v[j] / (1 - b2**step)
                params[j] -= lr * mh / (np.sqrt(vh) + 1e-8)
        if epoch == int(epochs * 0.7):
            lr *= 0.3
    return Mlp(*params)


def train(
    seed: int = 7, per_rank: int = 10, per_suit: int = 25, epochs: int = 40
) -> tuple[GlyphModel, dict[str, float]]:
    rng = np.random.default_rng(seed)
    ranks = rank_sources()
    suits = suit_sources()
    all_ranks = [m for ms in ranks.values() for m in ms]
    all_suits = [m for ms in suits.values() for m in ms]
    rank_junk = junk_sources(rng, all_suits, len(all_ranks) * per_rank // 12)
    suit_junk = junk_sources(rng, all_ranks, len(all_suits) * per_suit // 4)
    rx, ry = make_set(ranks, RANKS, per_rank, rank_junk, rng, DEFOCUS)
    sx, sy = make_set(suits, SUITS, per_suit, suit_junk, rng, DEFOCUS)
    rank = fit(rx, ry, len(RANKS), 128, rng, epochs)
    suit = fit(sx, sy, len(SUITS), 48, rng, epochs)
    # held-out check on freshly degraded glyphs
    tx, ty = make_set(ranks, RANKS, 3, [], rng)
    ux, uy = make_set(suits, SUITS, 3, [], rng)
    stats = {
        "rank_samples": float(len(ry)),
        "suit_samples": float(len(sy)),
        "rank_heldout_acc": float((rank.proba(tx).argmax(1) == ty).mean()),
        "suit_heldout_acc": float((suit.proba(ux).argmax(1) == uy).mean()),
    }
    black, stats["black_heldout_acc"] = train_black(seed)
    return GlyphModel(rank, suit, black=black), stats


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--out", type=Path, default=DEFAULT_WEIGHTS)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument(
        "--black",
        action="store_true",
        help="rebuild only the black-suit head, keeping the rank and suit heads of --out",
    )
    args = ap.parse_args(argv)
    t0 = time.time()
    if args.black:
        if not args.out.is_file():
            print(f"vision.train: --black keeps the other heads of {args.out}, which is not there")
            return 2
        model = GlyphModel.load(args.out)
        model.black, acc = train_black(args.seed)
        stats = {"black_heldout_acc": acc}
    else:
        model, stats = train(args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    model.save(args.out)
    print(
        " ".join(f"{k}={v:.4g}" for k, v in stats.items()),
        f"seconds={time.time() - t0:.1f}",
        f"out={args.out}",
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
