"""Where each space is drawn: turtle geometry along the pieces, in points.

The reference line is the inner border of lane 0, driven clockwise; lanes lie to its left
(outside), lane ``i``'s centre ``(i + 0.5) * LANE`` from it. A piece turning by ``turn``
degrees bends that line into an arc whose radius fits the inside lane's space count. The
positions are physical: both driving directions of a course share them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["LANE", "SPACE", "Layout", "PiecePose", "lane_offset"]

SPACE = 40.0  # points along the track per space
LANE = 40.0  # points across per lane


@dataclass(frozen=True)
class PiecePose:
    """Start position and heading of a piece, and how it bends."""

    x: float
    y: float
    heading: float  # radians, 0 = east, counter-clockwise positive
    length: float  # along the reference line, for a straight piece
    turn: float  # radians, positive = to the right (clockwise)
    radius: float  # of the reference line when turning


class Layout:
    """Positions of points on the course: ``point(piece, fraction, offset)``."""

    def __init__(self, lengths: list[list[int]], turns: list[float], lanes: int) -> None:
        self.poses: list[PiecePose] = []
        x = y = heading = 0.0
        for lens, turn_deg in zip(lengths, turns, strict=True):
            turn = math.radians(turn_deg)
            longest = max(lens) if lens else 1
            if abs(turn) < 1e-9:
                pose = PiecePose(x, y, heading, longest * SPACE, 0.0, 0.0)
            elif turn > 0:  # right turn: the inside lanes are the short ones
                # the innermost lane present fits its spaces on its own arc
                i = next((k for k, n in enumerate(lens) if n), 0)
                radius = max(lens[i] * SPACE / turn - (i + 0.5) * LANE, 0.25 * LANE)
                pose = PiecePose(x, y, heading, 0.0, turn, radius)
            else:  # left turn: the outermost lane present is on the inside of this bend
                j = next((k for k in range(len(lens) - 1, -1, -1) if lens[k]), lanes - 1)
                radius = lens[j] * SPACE / -turn + (j + 0.5) * LANE
                pose = PiecePose(x, y, heading, 0.0, turn, radius)
            self.poses.append(pose)
            x, y, heading = self._at(pose, 1.0, 0.0)
        self.end = (x, y, heading)

    @staticmethod
    def _at(pose: PiecePose, frac: float, offset: float) -> tuple[float, float, float]:
        """(x, y, heading) at ``frac`` of the piece, ``offset`` points left of the line."""
        if pose.turn == 0.0:
            d = pose.length * frac
            cx = pose.x + d * math.cos(pose.heading)
            cy = pose.y + d * math.sin(pose.heading)
            h = pose.heading
        else:
            # centre of the turn: to the right (turn > 0) or left (turn < 0) of the line
            side = -1.0 if pose.turn > 0 else 1.0
            nx, ny = -math.sin(pose.heading) * side, math.cos(pose.heading) * side
            ox, oy = pose.x + nx * pose.radius, pose.y + ny * pose.radius
            h = pose.heading - pose.turn * frac
            cx = ox - (-math.sin(h) * side) * pose.radius
            cy = oy - (math.cos(h) * side) * pose.radius
        lx, ly = -math.sin(h), math.cos(h)  # left normal
        return cx + lx * offset, cy + ly * offset, h

    def point(self, piece: int, frac: float, offset: float) -> tuple[float, float, float]:
        """(x, y, heading in degrees) at ``frac`` (0..1) of ``piece``, ``offset`` to the left."""
        x, y, h = self._at(self.poses[piece], frac, offset)
        return x, y, math.degrees(h)

    def along(self, t: float, offset: float) -> tuple[float, float, float]:
        """Like :meth:`point` for a position ``t`` = piece index + fraction."""
        piece = min(int(t), len(self.poses) - 1)
        return self.point(piece, t - piece, offset)

    def closure_gap(self) -> float:
        """How far (points) the end of the last piece lies from the start of the first."""
        x, y, _ = self.end
        return math.hypot(x, y)


def lane_offset(lane: float) -> float:
    """Distance of a lane's centre line to the left of the reference line."""
    return (lane + 0.5) * LANE
