"""coffeegames: exact probability inside five coffee-themed tabletop games.

Every probability the library states is a :class:`fractions.Fraction` computed from
integer counts; floats are only for display. Start with :mod:`coffeegames.exact`
(distributions, dice multisets, bag draws) and :mod:`coffeegames.dairyman`.

>>> from coffeegames import dairyman
>>> dairyman.p_bust(2)
Fraction(11, 12)
"""

from . import dairyman, exact
from .exact import Bag, Dist, roll

__version__ = "0.1.0"

__all__ = ["Bag", "Dist", "__version__", "dairyman", "exact", "roll"]
