"""A VivaJava player's score sheet: PP, RP on each research track, marker tokens, flavour dice held.

Example:
    >>> print(PlayerState(pp=3, research=(0, 2, 0, 0, 1), tokens=(0, 1, 0, 0, 0), flavour=2))
    PP 3 · RP W0 Y2 B0 R0 G1 · tokens yellow×1 · flavour dice 2
"""

from __future__ import annotations

from dataclasses import dataclass

from .data import TRACK_COLOURS

__all__ = ["NO_TRACKS", "PlayerState"]

NO_TRACKS: tuple[int, ...] = (0,) * len(TRACK_COLOURS)
"""Nothing on any track (white..green)."""


@dataclass(frozen=True)
class PlayerState:
    """One player's score sheet: PP, RP on each track (white..green), marker tokens on each track, flavour dice held."""

    pp: int = 0
    research: tuple[int, ...] = NO_TRACKS
    tokens: tuple[int, ...] = NO_TRACKS
    flavour: int = 0

    def __str__(self) -> str:
        rp = " ".join(f"{c[0].upper()}{n}" for c, n in zip(TRACK_COLOURS, self.research))
        tokens = " ".join(f"{c}×{n}" for c, n in zip(TRACK_COLOURS, self.tokens) if n) or "-"
        return f"PP {self.pp} · RP {rp} · tokens {tokens} · flavour dice {self.flavour}"
