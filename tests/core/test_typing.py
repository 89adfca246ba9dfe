"""The public API is typed: ``crypto_api.__all__``, annotations, ``py.typed``.

``__all__`` names exactly the public names the package binds (no typing
helpers or submodules leaking through ``from .alg import *``); every function
in it, and every public method of every class in it, annotates each parameter
and its return, and the annotations resolve (``typing.get_type_hints``); the
PEP 561 marker ``py.typed`` is part of the package and of what setuptools
builds from pyproject.toml (``build_py`` on a copy of the checkout: the same
file list a wheel gets, without compiling the C cores).
"""

import inspect
import shutil
import subprocess
import sys
import types
import typing
from importlib import resources
from pathlib import Path

import pytest

import crypto_api as capi
from crypto_api.tfm import PYTHON_METHODS as tfm_methods

ROOT = Path(__file__).resolve().parents[2]
TYPING_HELPERS = {"annotations", "Any", "Callable", "Optional", "Union", "Callback", "Ctx"}


def public_bindings():
    """The package's public names: those it binds, and those its module
    ``__getattr__`` serves from outside the core (``_LAZY``: VolumeCipher)."""
    names = set()
    bound = dict(vars(capi))
    bound.update((name, getattr(capi, name)) for name in capi._LAZY)
    for name, obj in bound.items():
        if name.startswith("_") or name in TYPING_HELPERS:
            continue
        if isinstance(obj, types.ModuleType) and name != "testmgr":
            continue
        names.add(name)
    return names


def test_all_is_exactly_the_public_names():
    assert len(capi.__all__) == len(set(capi.__all__))
    assert set(capi.__all__) == public_bindings()
    namespace = {}
    exec("from crypto_api import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(capi.__all__)


def _functions():
    """``(qualified name, function)`` for every public callable of the API, methods included."""
    out = []
    for name in capi.__all__:
        obj = getattr(capi, name)
        if inspect.isclass(obj) and obj.__module__.startswith("crypto_api"):
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr != "__init__":
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if isinstance(member, property):
                    member = member.fget
                # a method entered in C (crypto_api/direct_method.c): its Python function
                member = tfm_methods.get((obj, attr), member)
                if inspect.isfunction(member):
                    out.append((f"{name}.{attr}", member))
        elif inspect.isfunction(obj):
            out.append((name, obj))
    return out


def test_there_are_functions_to_check():
    names = {n for n, _ in _functions()}
    assert {"crypto_alloc_skcipher", "CryptoSkcipher.encrypt", "ShashDesc.update",
            "sg_set_buf", "insmod", "CryptoError.__init__"} <= names


@pytest.mark.parametrize("name, fn", _functions(), ids=[n for n, _ in _functions()])
def test_every_parameter_and_return_is_annotated(name, fn):
    sig = inspect.signature(fn)
    missing = [p.name for p in sig.parameters.values()
               if p.name not in ("self", "cls") and p.annotation is inspect.Parameter.empty]
    assert missing == [], f"{name}: parameters without annotation: {missing}"
    assert sig.return_annotation is not inspect.Signature.empty, f"{name}: no return annotation"
    owner = sys.modules[getattr(capi, name.split(".")[0]).__module__]
    typing.get_type_hints(fn, globalns=vars(owner))   # every annotation names something real


def test_py_typed_is_in_the_package():
    assert resources.files("crypto_api").joinpath("py.typed").is_file()


def test_py_typed_is_in_what_setuptools_builds(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", "__pycache__", "*.so", ".pytest_cache",
        ".hypothesis", "tests"))
    out = tmp_path / "lib"
    p = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(out)],
                       cwd=src, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    assert (out / "crypto_api" / "py.typed").is_file()
    assert (out / "crypto_api" / "testmgr" / "vectors" / "xchacha12.json").is_file()
