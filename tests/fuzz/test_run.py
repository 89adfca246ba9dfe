"""tests/fuzz/run.py's replay, as docs/sanitizers.md shows it: a kept input
runs through its target's check in a plain interpreter (no atheris), its
bytes printed; a target name that does not exist is refused."""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
REPLAY = ".venv/bin/python tests/fuzz/run.py --replay tests/fuzz/corpus/cipher_spec/finding-algorithm-name-too-long cipher_spec"


def _replay(args):
    return subprocess.run([sys.executable, os.path.join(HERE, "run.py"), *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_a_replay_names_the_input_and_passes():
    args = REPLAY.split()[2:]
    r = _replay(args)
    assert r.returncode == 0, r.stderr
    data = open(os.path.join(ROOT, args[1]), "rb").read()
    assert data.hex() in r.stdout and "no finding" in r.stdout


def test_an_unknown_target_is_refused():
    r = _replay(["--replay", REPLAY.split()[3], "no_such_target"])
    assert r.returncode != 0 and "no fuzz target 'no_such_target'" in r.stderr
