"""What a new user of the command line meets first: ``--version``, ``list --name``
patterns over template instances, and a bad ``CRYPTO_API_SELFTESTS`` named by
every command.

Each check runs the real command in a fresh interpreter (the registry is
process-global: an instance built by another test would hide a listing that
does not build it).
"""

import fnmatch
import importlib.metadata
import os
import subprocess
import sys

import pytest

from crypto_api.__main__ import main
from kernel_names import listing_lines

ENV = dict(os.environ, CRYPTO_API_SELFTESTS="off")
ADIANTUM = {"adiantum(xchacha12,aes)", "adiantum(xchacha20,aes)"}


def cli(*args, env=ENV, **kw):
    return subprocess.run([sys.executable, "-m", "crypto_api", *args], env=env,
                          capture_output=True, text=True, timeout=300, **kw)


def table_rows(stdout):
    """The table's rows, after its header (and the followed kernel's line)."""
    lines = listing_lines(stdout)
    assert lines[0].split()[:3] == ["name", "type", "driver"]
    return [line.split() for line in lines[1:]]


# ---------------------------------------------------------------- --version

def test_version_is_the_installed_distributions():
    want = importlib.metadata.version("crypto_api")
    p = cli("--version")
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout == f"crypto-api {want}\n"


def test_version_in_process_exits_zero(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.split() == ["crypto-api", importlib.metadata.version("crypto_api")]


# ---------------------------------------------------------------- list --name patterns

@pytest.mark.parametrize("pattern", ["adiantum(*", "adiantum*", "*(xchacha??,aes)", "adiantum([x]chacha*"])
def test_a_pattern_finds_the_adiantum_instances(pattern):
    p = cli("list", "--table", "--name", pattern)
    assert p.returncode == 0, p.stderr
    rows = table_rows(p.stdout)
    assert {r[0] for r in rows} == ADIANTUM
    for name, _type, driver, *_ in rows:
        assert fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(driver, pattern)
        assert driver.startswith("adiantum(") and _type == "skcipher"


def test_a_pattern_on_driver_names_finds_instances_too():
    p = cli("list", "--table", "--name", "adiantum(xchacha20-*")
    assert p.returncode == 0, p.stderr
    rows = table_rows(p.stdout)
    assert rows and all(r[0] == "adiantum(xchacha20,aes)" for r in rows)


@pytest.mark.parametrize("pattern", ["[", "adiantum(xchacha12[", "[]", "]", "adiantum(", ")", "[[*", "[!a-z]*("])
def test_brackets_and_parentheses_never_explode(pattern, capsys):
    rc = main(["list", "--name", pattern])
    out, err = capsys.readouterr()
    assert rc == 1 and out == ""
    assert err == f"crypto-api list: no algorithm matches name {pattern!r}\n"


# ---------------------------------------------------------------- a bad CRYPTO_API_SELFTESTS

def _commands(tmp_path):
    key = tmp_path / "key"
    key.write_bytes(bytes(range(32)))
    image = tmp_path / "disk.img"
    image.write_bytes(bytes(range(256)) * 16)
    iv = "00" * 32
    return {
        "list": ["list"],
        "selftest": ["selftest", "xchacha12"],
        "speed": ["speed", "--alg", "xchacha12", "--sizes", "16", "--repeat", "1", "--no-slope"],
        "boot": ["boot", "--quiet-proc"],
        "enc": ["enc", "-c", "xchacha12", "--keyfile", str(key), "--iv", iv,
                "-i", str(key), "-o", str(tmp_path / "out")],
        "dec": ["dec", "-c", "xchacha12", "--keyfile", str(key), "--iv", iv,
                "-i", str(key), "-o", str(tmp_path / "out")],
        "disk": ["disk", "encrypt", str(image), "--cipher", "xchacha12,aes-adiantum-plain64",
                 "--key-file", str(key)],
    }


@pytest.mark.parametrize("command", ["list", "selftest", "speed", "boot", "enc", "dec", "disk"])
@pytest.mark.parametrize("value", ["bogus", "Fulll", "1"])
def test_every_command_names_a_bad_selftest_level(tmp_path, command, value):
    args = _commands(tmp_path)[command]
    image = (tmp_path / "disk.img").read_bytes()
    p = cli(*args, env=dict(os.environ, CRYPTO_API_SELFTESTS=value))
    assert p.returncode == 1
    assert p.stdout == ""
    assert p.stderr == (f"crypto-api {command}: [Errno 22] EINVAL: CRYPTO_API_SELFTESTS={value!r}: "
                        "not a self-test level, expected one of off, fast, full\n")
    assert not (tmp_path / "out").exists()
    assert (tmp_path / "disk.img").read_bytes() == image


def test_a_bad_fuzz_iteration_count_is_named_too(tmp_path):
    p = cli("list", env=dict(os.environ, CRYPTO_API_FUZZ_ITERATIONS="many"))
    assert p.returncode == 1 and p.stdout == ""
    assert p.stderr == ("crypto-api list: [Errno 22] EINVAL: CRYPTO_API_FUZZ_ITERATIONS 'many': "
                        "expected a non-negative integer\n")


def test_the_check_reads_the_environment_each_time(monkeypatch, capsys):
    # in process: a level already cached does not hide a bad variable from a command
    import crypto_api as capi
    capi.testmgr.get_level()
    monkeypatch.setenv("CRYPTO_API_SELFTESTS", "sometimes")
    assert main(["list", "--type", "cipher"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "CRYPTO_API_SELFTESTS='sometimes'" in err and err.count("\n") == 1
