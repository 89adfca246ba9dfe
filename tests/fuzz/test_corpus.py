"""Every kept fuzz input, replayed through its target's check (no atheris).

The corpora in tests/fuzz/corpus/<target>/ hold the inputs ``make fuzz``
starts from, among them each finding's input, so a finding stays a
regression test of ``make test``; under ``make test-asan`` the same replay
runs with the sanitizers.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from targets import NAMES, check_function, corpus_files  # noqa: E402


@pytest.mark.parametrize("name", NAMES)
def test_every_target_keeps_a_corpus(name):
    assert len(corpus_files(name)) >= 5, f"tests/fuzz/corpus/{name}/ holds too few inputs"


@pytest.mark.parametrize("name", NAMES)
def test_the_corpus_replays_without_a_finding(name):
    check = check_function(name)
    for path in corpus_files(name):
        with open(path, "rb") as f:
            data = f.read()
        try:
            check(data)
        except Exception as e:
            raise AssertionError(f"{path}: {type(e).__name__}: {e}\n"
                                 f"replay: python tests/fuzz/run.py --replay {path} {name}") from e


def test_the_targets_are_deterministic():
    """The same input decodes to the same case: a replayed finding is the finding."""
    from fuzz_input import FuzzInput
    data = bytes(range(200))
    a, b = FuzzInput(data), FuzzInput(data)
    assert [a.length(5000), a.blob(70), a.uint(9)] == [b.length(5000), b.blob(70), b.uint(9)]
    assert FuzzInput(b"").blob(5) == FuzzInput(b"").blob(5)
