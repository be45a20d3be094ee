"""``errors.shown``: a bad value is quoted by a short prefix, and quoting it never walks the whole value."""

from __future__ import annotations

from coffeegames.errors import SHOWN_CHARS, BadArgument, shown


class Counted:
    """An element that counts how often it is quoted."""

    calls = 0

    def __repr__(self) -> str:
        Counted.calls += 1
        return "c"


def test_a_huge_list_is_quoted_by_a_few_of_its_elements() -> None:
    Counted.calls = 0
    text = shown([Counted() for _ in range(100_000)])
    assert len(text) <= SHOWN_CHARS
    assert Counted.calls <= SHOWN_CHARS  # reprlib stops at maxlist elements; a plain repr would quote all 100,000


def test_a_huge_text_gives_a_short_message_that_starts_with_it() -> None:
    error = BadArgument("name", "must be a colour", "x" * 10_000_000)
    assert len(str(error)) < 300
    assert "got 'xxxxxxxx" in str(error) and str(error).endswith("…")


def test_small_values_are_quoted_whole_as_repr_gives_them() -> None:
    for value in ([1, 2, 3], {"a": [1, (2, 3)]}, "tea", b"abc", 2.5, None, frozenset({4})):
        assert shown(value) == repr(value)
