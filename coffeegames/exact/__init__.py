"""The exact probability core: distributions, dice multisets, bag draws, simulation.

Every probability here is a :class:`fractions.Fraction` built from integer counts.
Simulations (:func:`estimate`) exist to be set beside exact answers, never instead.
"""

from .bag import Bag, as_bag
from .dice import D6, check_count, count_vectors, multinomial, multisets, roll
from .dist import Dist
from .simulate import Estimate, estimate, face_counts, roll_array, running_estimate

__all__ = [
    "Bag",
    "as_bag",
    "D6",
    "Dist",
    "Estimate",
    "check_count",
    "count_vectors",
    "estimate",
    "face_counts",
    "multinomial",
    "multisets",
    "roll",
    "roll_array",
    "running_estimate",
]
