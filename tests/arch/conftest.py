"""Fixtures of the x86 core tests."""

import pytest
from fenced import Fenced


@pytest.fixture
def fences():
    """fences(size) -> a Fenced buffer, closed after the test."""
    made = []

    def make(size):
        f = Fenced(size)
        made.append(f)
        return f
    yield make
    for f in made:
        f.close()
