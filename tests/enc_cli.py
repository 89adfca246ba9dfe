"""Running the ``crypto-api enc``/``dec`` command line as a user does, for the tool tests.

``cli(args)`` runs ``python -m crypto_api ARGS`` with the self-tests off (the
tool is under test, not them), output captured as bytes; ``timeout`` bounds a
hung tool.  ``assert_one_line_error`` checks the failure contract of the tools:
a non-zero exit and exactly one line on stderr, naming the given words, never a
traceback.  ``peak_rss_kib(args)`` is one run's peak resident memory.
"""

import os
import subprocess
import sys

ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")


def cli(args, timeout=600, **kw):
    return subprocess.run([sys.executable, "-m", "crypto_api", *args], env=ENV,
                          capture_output=True, timeout=timeout, **kw)


def assert_one_line_error(p, *words):
    err = p.stderr.decode()
    assert p.returncode != 0
    assert "Traceback" not in err and err.count("\n") == 1 and err.endswith("\n"), err
    for w in words:
        assert w in err, err


def peak_rss_kib(args):
    """The peak RSS in KiB of one ``crypto-api ARGS`` run (which must succeed),
    measured by a fresh wrapper process whose only child it is
    (``getrusage(RUSAGE_CHILDREN)``)."""
    probe = ("import resource, subprocess, sys; p = subprocess.run(sys.argv[1:]); "
             "assert p.returncode == 0; print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    p = subprocess.run([sys.executable, "-c", probe, sys.executable, "-m", "crypto_api", *args],
                       env=ENV, capture_output=True, timeout=300)
    assert p.returncode == 0, p.stderr
    return int(p.stdout)
