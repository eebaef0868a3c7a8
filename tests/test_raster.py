"""raster.stroke against a plain reference: every segment measured at every pixel of the clip,
the nearest counting, with the same arithmetic, so that the one-pass drawing must give the
same levels exactly."""

from __future__ import annotations

import numpy as np
import pytest

from sitegen.cards import raster

CLIP = (738, 278, 1162, 590)


def reference(points, width: float, clip) -> np.ndarray:
    """The levels over `clip` (rows x columns): each pixel against every segment."""
    pts = np.array(points, float).reshape(-1, 2)
    pts = pts[np.isfinite(pts).all(axis=1)]
    pts = pts[np.concatenate(([True], (np.diff(pts, axis=0) != 0).any(axis=1)))]
    if len(pts) == 1:
        pts = np.vstack([pts, pts])
    reach = width / 2 + 0.5
    cy, cx = np.mgrid[clip[1] : clip[3], clip[0] : clip[2]] + 0.5
    dist2 = np.full(cx.shape, np.inf)
    for piece in raster._monotone(pts):  # each segment along x never falling
        for (ax, ay), (bx, by) in zip(piece[:-1], piece[1:], strict=True):
            sx, sy = bx - ax, by - ay
            px, py = cx - ax, cy - ay
            t = np.clip((px * sx + py * sy) * (1 / max(sx * sx + sy * sy, 1e-12)), 0.0, 1.0)
            px, py = px - t * sx, py - t * sy
            dist2 = np.minimum(dist2, px * px + py * py)
    cover = np.clip(reach - np.sqrt(dist2), 0.0, 1.0)
    return np.rint(cover * raster.LEVELS).astype(np.uint8)


def drawn(points, width: float, clip) -> np.ndarray:
    ys, xs, levels = raster.stroke(points, width, clip)
    assert ((ys >= clip[1]) & (ys < clip[3]) & (xs >= clip[0]) & (xs < clip[2])).all()
    assert len(np.unique(ys * 10_000 + xs)) == len(ys)  # each pixel once
    assert ((levels >= 1) & (levels <= raster.LEVELS)).all()
    out = np.zeros((clip[3] - clip[1], clip[2] - clip[0]), np.uint8)
    out[ys - clip[1], xs - clip[0]] = levels
    return out


def polylines(seed: int, trials: int):
    rng = np.random.default_rng(seed)
    for trial in range(trials):
        k = int(rng.integers(1, 14))
        kind = trial % 6
        if kind == 0:  # a frontier: x in order, some points repeated, some on whole pixels
            xs = np.sort(np.round(rng.uniform(760, 1140, k) * rng.choice([1, 0.25])))
            ys = rng.uniform(300, 540, k)
            pts = np.column_stack((xs, ys))
            pts = np.repeat(pts, rng.integers(1, 3, k), axis=0)
        elif kind == 1:  # wandering back and forth, partly off the clip
            pts = rng.uniform((600, 150), (1300, 700), (k, 2))
        elif kind == 2:  # vertical and horizontal runs
            pts = np.round(rng.uniform((740, 280), (1160, 590), (k, 2)))
            pts[1::2, 0] = pts[::2, 0][: len(pts[1::2])]
        elif kind == 3:  # far off the canvas, crossing it
            pts = rng.uniform(-1e6, 1e6, (max(k, 2), 2))
        elif kind == 4:  # wholly outside the clip
            pts = rng.uniform((0, 0), (700, 250), (k, 2))
        else:  # short segments: many reaching each column
            x0 = rng.uniform(740, 1100)
            pts = np.column_stack((x0 + np.cumsum(rng.uniform(0, 2, k)), rng.uniform(400, 420, k)))
        yield [tuple(p) for p in pts], float(rng.choice([1.0, 2.5, 5.0, 9.0]))


@pytest.mark.parametrize("seed", range(4))
def test_a_stroke_is_every_segment_measured_at_every_pixel(seed):
    for points, width in polylines(seed, 60):
        assert (drawn(points, width, CLIP) == reference(points, width, CLIP)).all(), points


def test_a_dot_and_a_point_repeated_draw_the_same_round_cap():
    dot = drawn([(900.3, 400.7)], 5, CLIP)
    assert (dot == drawn([(900.3, 400.7)] * 3, 5, CLIP)).all()
    assert (dot == reference([(900.3, 400.7)], 5, CLIP)).all() and dot.max() == raster.LEVELS


@pytest.mark.parametrize(
    "points",
    [
        [(1e308, 400.0), (-1e308, 401.0)],
        [(800.0, 1e308), (900.0, -1e308), (950.0, 400.0)],
        [(float("nan"), 400.0), (800.0, 400.0), (float("inf"), 450.0), (900.0, 420.0)],
        [(1.7e308, 1.7e308), (-1.7e308, -1.7e308)],
        [(float("-inf"), float("nan"))],
        [(1e-300, 400.0), (2e-300, 400.0), (900.0, 400.0 + 1e-300)],
    ],
)
def test_hostile_coordinates_stay_in_the_clip_and_do_not_fail(points):
    drawn(points, 5, CLIP)


def test_the_finite_points_of_a_line_are_drawn_as_if_alone():
    points = [(800.0, 400.0), (float("nan"), 1.0), (900.0, 500.0), (1000.0, float("inf"))]
    finite = [(800.0, 400.0), (900.0, 500.0)]
    assert (drawn(points, 5, CLIP) == drawn(finite, 5, CLIP)).all()


def test_dashes_are_their_rows_and_columns():
    ys, xs, levels = raster.vertical_dashes(900.5, 2, 300, 340, 6)
    rows = sorted(set(ys.tolist()))
    assert rows == [y for y in range(300, 340) if (y - 300) // 6 % 2 == 0]
    assert sorted(set(xs.tolist())) == [899, 900, 901]
    assert len(ys) == len(rows) * 3 and set(levels.tolist()) == {8, 16}
    assert len(raster.vertical_dashes(float("nan"), 2, 300, 340, 6)[0]) == 0


def test_a_copy_is_drawn_on_and_what_it_was_copied_from_is_not():
    base = raster.Canvas(10, 6)
    base.rect(0, 0, 10, 6, 2)
    copy = base.copy()
    copy.rect(1, 1, 3, 3, 5)
    table = np.full((10, raster.LEVELS + 1), 9, np.uint8)
    copy.blend(np.array([4]), np.array([6]), np.array([8], np.uint8), table)
    assert (base.pixels == 2).all() and (base.rows[:, 0] == 0).all()
    assert copy.pixels[1:3, 1:3].tolist() == [[5, 5], [5, 5]] and copy.pixels[4, 6] == 9
    assert (copy.rows[:, 0] == 0).all() and (copy.pixels == 2).sum() == 60 - 5


def test_lay_sets_the_patch_where_it_has_ink_and_keeps_the_rest():
    canvas = raster.Canvas(10, 6)
    canvas.rect(0, 0, 10, 6, 2)
    patch = np.array([[9, 5, 6], [7, 9, 9]], np.uint8)
    ink = np.array([[False, True, True], [True, False, False]])
    canvas.lay(8, 5, patch, ink)  # partly off the canvas: the rest is dropped
    assert canvas.pixels[5, 8:].tolist() == [2, 5] and (canvas.pixels[:5] == 2).all()
    canvas.lay(1, 1, patch, ink)
    assert canvas.pixels[1:3, 1:4].tolist() == [[2, 5, 6], [7, 2, 2]]


def test_a_text_patch_is_its_ramp_where_it_has_ink():
    levels, _, _ = raster.text_levels("Ag,", 30, "regular")
    patch, ink, _, _ = raster.text_patch("Ag,", 30, "regular", 40)
    assert ink.any() and (~ink).any()
    assert (ink == (levels > 0)).all() and (patch[ink] == levels[ink] + 40).all()
