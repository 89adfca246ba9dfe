"""Every release from 5.0 to 6.19 can be followed; what a release between two read versions cannot be sure of.

The table's sources read some trees (crypto_api.kernels.KNOWN); any other
release answers from the rows' ranges (test_kernel_snapshot boots some of
them).  These tests check the switch accepts exactly the releases, the
bracket of read versions around each, and that crypto_api.kernels.query's
``unsettled`` names a fact exactly when one of its bounds lies between the
two read versions and its row says something is unknown.
"""

import os
import subprocess
import sys

import pytest

from crypto_api import kernels
from crypto_api.errors import EINVAL, CryptoError
from crypto_api.kernels import RELEASES, KNOWN, bracket, query
from crypto_api.kernels.versions import key


def test_the_releases_are_5_0_to_6_19_and_include_the_read_ones():
    assert RELEASES[0] == "5.0" and RELEASES[-1] == "6.19" and len(RELEASES) == 40
    assert set(KNOWN) <= set(RELEASES)
    assert [key(v) for v in RELEASES] == sorted(key(v) for v in RELEASES)
    assert "5.19" in RELEASES and "6.0" in RELEASES and "5.20" not in RELEASES


@pytest.mark.parametrize("bad", ["4.19", "5.20", "6.20", "7.0", "6.8.1", "6", "", "v6.8", 6.8])
def test_anything_else_is_einval_naming_the_range(bad):
    with pytest.raises(CryptoError) as e:
        kernels.check(bad)
    assert e.value.errno == EINVAL and "5.0 to 6.19" in str(e.value) and ", ".join(KNOWN) in str(e.value)


def test_bracket_is_the_read_versions_around_a_release():
    for v in RELEASES:
        lo, hi = bracket(v)
        if v in KNOWN:
            assert lo == hi == v
            continue
        assert lo in KNOWN and hi in KNOWN and key(lo) < key(v) < key(hi)
        assert not [k for k in KNOWN if key(lo) < key(k) < key(hi)]


def _facts(machine):
    return list(query._facts(machine))


@pytest.mark.parametrize("machine", ["x86_64", "arm64", "arm", "ppc64le"])
def test_unsettled_is_exactly_the_unknown_bounds_inside_the_span(machine):
    facts = _facts(machine)
    for v in RELEASES:
        got = {(u.kind, u.name, u.bound) for u in query.unsettled(v, machine)}
        lo, hi = bracket(v)
        if lo == hi:
            assert got == set(), v
            continue
        want = {(kind, name, b) for kind, name, f in facts if f.unknown
                for b in (f.since, f.until) if b is not None and key(lo) < key(b) <= key(hi)}
        assert got == want, v


def test_unsettled_names_the_known_doubts():
    """Spot checks against the rows' own words: XTS stealing came between 5.2
    and 5.4 (5.3 not read); ARIA's first release 5.18 is from the commit
    history; nothing is doubtful in a release whose span holds no unknown bound."""
    in_5_3 = {(u.kind, u.name) for u in query.unsettled("5.3", "x86_64")}
    assert ("rule", "xts.stealing") in in_5_3 and ("rule", "aead.setauthsize_zero") in in_5_3
    assert ("driver", "aria-generic") in {(u.kind, u.name) for u in query.unsettled("5.17", "arm64")}
    assert all(u.unknown for u in query.unsettled("6.16", "x86_64"))


def test_a_release_with_an_unsettled_span_answers_as_the_ranges_say():
    """The answer at a bound: 6.0 is XCTR's first release (the commit's), 5.19 is not."""
    assert "xctr-aes-aesni" in query.snapshot("6.0", "x86_64")
    assert "xctr-aes-aesni" not in query.snapshot("5.19", "x86_64")
    assert query.snapshot("6.16", "arm64")["xchacha12-arm64"] == ("xchacha12", 300)


def test_caveat_says_so_only_for_a_release_not_read():
    assert kernels.caveat("6.12") == "" and kernels.caveat("composite") == ""
    note = kernels.caveat("6.8")
    assert note.startswith("Linux 6.8 was not read") and "6.6 and 6.12" in note
    assert "crypto-api kernels 6.8" in note


def cli(*args):
    env = dict(os.environ, CRYPTO_API_SELFTESTS="off")
    for k in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU"):
        env.pop(k, None)
    return subprocess.run([sys.executable, "-m", "crypto_api", *args], env=env, capture_output=True,
                          text=True, timeout=600)


def test_the_kernels_command_lists_releases_and_a_releases_doubts():
    out = cli("kernels")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "releases: " + ", ".join(RELEASES)
    assert lines[1] == "read in full: " + ", ".join(KNOWN) and lines[2] == f"default: {kernels.DEFAULT}"
    out = cli("kernels", "5.3")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    doubts = query.unsettled("5.3", "x86_64")
    assert lines[0] == kernels.caveat("5.3") and len(lines) == 1 + len(doubts)
    assert any(line.startswith("  rule xts.stealing: bound 5.4: ") for line in lines)
    out = cli("kernels", "6.20")
    assert out.returncode == 1 and "5.0 to 6.19" in out.stderr


def test_list_under_a_release_not_read_says_so_on_its_second_line():
    out = cli("--kernel", "6.16", "list", "--table", "--name", "xchacha12*")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "# kernel: Linux 6.16" and lines[1] == "# " + kernels.caveat("6.16")
    assert "xchacha12-x86" in out.stdout
    read = cli("--kernel", "6.18", "list", "--table", "--name", "xchacha12*")
    assert read.returncode == 0 and not read.stdout.splitlines()[1].startswith("#")
