"""The command line's commands come from one table: ``crypto_api.commands``.

pyproject.toml's entry-point group ``crypto_api.commands`` has one row per
command, ``name = "module:function"``; crypto_api/__main__.py reads the
group and calls each function with its sub-parsers.  Checked here: each row
adds exactly the command it is named after; the CLI offers exactly the rows
(the installed metadata is pyproject's); a plug-in distribution adds a
command with one row, cannot take over a command of this project, and a row
whose module is gone is skipped; no rows at all is a one-line error.
"""

import argparse
import importlib
import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from crypto_api import __main__ as cli

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def pyproject_rows():
    """name -> "module:function" of pyproject.toml's crypto_api.commands table."""
    text = PYPROJECT.read_text(encoding="utf-8")
    table = text.split('[project.entry-points."crypto_api.commands"]', 1)[1].split("\n[", 1)[0]
    return dict(re.findall(r'^(\w+) = "([\w.]+:\w+)"$', table, re.M))


def test_the_table_has_this_projects_commands():
    assert set(pyproject_rows()) == {"boot", "list", "selftest", "speed", "enc", "dec", "disk", "benchmark",
                                   "fscrypt", "kernels"}


@pytest.mark.parametrize("name, target", sorted(pyproject_rows().items()))
def test_each_row_adds_the_command_it_is_named_after(name, target):
    module, function = target.split(":")
    assert module.startswith("crypto_api.tools.")
    sub = argparse.ArgumentParser().add_subparsers()
    getattr(importlib.import_module(module), function)(sub)
    assert list(sub.choices) == [name]
    assert callable(sub.choices[name].get_default("func"))


def test_the_cli_offers_exactly_the_rows():
    rows = pyproject_rows()
    installed = {ep.name: ep.value for ep in cli.command_rows()}
    assert installed == rows, "the installed metadata is not pyproject.toml's: pip install -e . again"
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == set(rows)


PLUGIN = '''
def register(sub):
    p = sub.add_parser("hello", help="a plug-in's command")
    p.add_argument("--name", default="world")
    p.set_defaults(func=lambda args: print(f"hello, {args.name}"))


def register_list(sub):
    raise AssertionError("a plug-in took over the list command")
'''


def test_a_plugin_adds_a_command_with_one_row(tmp_path):
    site = tmp_path / "site"
    dist = site / "tmcmd_hello-0.1.dist-info"
    dist.mkdir(parents=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: tmcmd-hello\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[crypto_api.commands]\n"
                                           "hello = tmcmd_hello:register\n"
                                           "list = tmcmd_hello:register_list\n"
                                           "gone = tmcmd_gone:register\n")
    (site / "tmcmd_hello.py").write_text(PLUGIN)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))

    def run(*args):
        return subprocess.run([sys.executable, "-m", "crypto_api", *args], capture_output=True, text=True,
                              env=env, timeout=300)

    r = run("hello", "--name", "plug-in")
    assert (r.returncode, r.stdout) == (0, "hello, plug-in\n"), r.stderr
    r = run("--help")
    assert r.returncode == 0 and "hello" in r.stdout and "gone" not in r.stdout, r.stderr
    r = run("list", "--help")                     # this project's list, not the plug-in's row
    assert r.returncode == 0 and "/proc/crypto" in r.stdout, r.stderr
    r = run("gone")
    assert r.returncode == 2 and "invalid choice: 'gone'" in r.stderr


def test_no_rows_is_a_one_line_error(monkeypatch, capsys):
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **kw: [])
    with pytest.raises(SystemExit) as e:
        cli.main(["list"])
    assert e.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "crypto-api: no commands" in err and "crypto_api.commands" in err
