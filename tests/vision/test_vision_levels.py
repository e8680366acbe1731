"""The histogram percentiles give numpy's value to the last bit, so no read changes."""

from __future__ import annotations

import numpy as np
import pytest

from vision.levels import darkest, lowered, percentile, percentiles

QS = (0, 2.5, 5, 50, 60, 70, 95, 98, 99, 100)


def _samples() -> list[np.ndarray]:
    rng = np.random.default_rng(7)
    out = [np.array([0], np.uint8), np.array([255, 0], np.uint8), np.full(17, 200, np.uint8)]
    for n in (2, 3, 10, 101, 1000, 8640):
        out.append(rng.integers(0, 256, n).astype(np.uint8))
        out.append(rng.integers(120, 123, n).astype(np.uint8))  # few levels: many ties
        out.append(np.clip(rng.normal(210, 25, n), 0, 255).astype(np.uint8))
    return out


@pytest.mark.parametrize("q", QS)
def test_same_as_numpy(q: float) -> None:
    for a in _samples():
        assert percentile(a, q) == float(np.percentile(a, q)), (a.size, q)


def test_several_at_once_and_any_shape() -> None:
    img = np.random.default_rng(3).integers(0, 256, (48, 64, 3)).astype(np.uint8)
    view = img[::4, ::4, 1]  # not contiguous, as a subsampled channel is
    assert percentiles(view, (5, 50, 95)) == tuple(
        float(v) for v in np.percentile(view, (5, 50, 95))
    )
    spread = img.max(axis=2).astype(np.int16) - img.min(axis=2)
    assert percentile(spread, 99) == float(np.percentile(spread, 99))


def test_no_pixels_is_an_error() -> None:
    with pytest.raises(ValueError, match="no pixels"):
        percentile(np.zeros(0, np.uint8), 50)


def test_the_darkest_level_is_the_inks_not_a_lone_hot_pixels() -> None:
    frame = np.full((60, 80, 3), 200, np.uint8)
    frame[10, 10] = 0  # one dead pixel: a quarter of a half-size pixel
    assert darkest(frame) == 150.0
    frame[30:34, 40:44] = 40  # a stroke of ink, four pixels thick
    assert darkest(frame) == 40.0


def test_lowered_moves_black_to_its_level_and_keeps_white() -> None:
    ramp = np.arange(160, 256, dtype=np.uint8).reshape(1, -1, 1).repeat(3, axis=2)
    out = lowered(ramp, 160.0, 90.0)
    assert out[0, 0].tolist() == [90, 90, 90]
    assert out[0, -1].tolist() == [255, 255, 255]
    assert (np.diff(out[0, :, 0].astype(int)) >= 1).all()  # every level still apart
