"""Prebuilt helpers (what a wheel ships, crypto_api.machine.prebuild): found
before the lazy build when their source key matches, never when it does not,
and they spare the cross compiler; the key follows every input of the build."""

import dataclasses
import gzip
import os

import pytest

from crypto_api.machine import helper_build as hb
from crypto_api.machine.core import arch_cores, arch_dir

from arm64_emulation import require_emulation


@pytest.fixture
def prebuilt_dir(tmp_path, monkeypatch):
    d = tmp_path / "prebuilt"
    monkeypatch.setattr(hb, "PREBUILT_DIR", str(d))
    monkeypatch.setenv("CRYPTO_API_CACHE", str(tmp_path / "cache"))
    return d


def _key(arch, cores=None):
    cores = cores or arch_cores(arch)
    return hb.source_key(arch, cores, hb.dispatcher_source(hb.functions_of(cores)), arch_dir(arch))


def test_a_matching_prebuilt_helper_is_used_without_the_compiler(prebuilt_dir, monkeypatch, tmp_path):
    require_emulation("arm64")
    packed = prebuilt_dir / os.path.basename(hb.prebuild("arm64", str(prebuilt_dir)))
    assert packed.name == f"arm64-{_key('arm64')}.gz"
    lazy, _ = hb._build_in_cache("arm64")
    # a PATH with qemu but no cross compiler: the prebuilt one is enough
    tools = tmp_path / "bin"
    tools.mkdir()
    os.symlink(hb.shutil.which("qemu-aarch64"), tools / "qemu-aarch64")
    monkeypatch.setenv("PATH", str(tools))
    assert hb.missing_tools("arm64") == []
    exe, fns = hb.build_helper("arm64")
    assert os.path.basename(os.path.dirname(exe)) == "prebuilt-" + packed.name[:-3]
    assert os.access(exe, os.X_OK)
    with open(exe, "rb") as a, open(lazy, "rb") as b:
        assert a.read() == b.read()                     # the same executable the lazy build makes
    assert [f.name for _c, f in fns] == [f.name for _c, f in hb.functions_of(arch_cores("arm64"))]


def test_a_stale_prebuilt_helper_is_never_used(prebuilt_dir, monkeypatch, tmp_path):
    prebuilt_dir.mkdir()
    stale = prebuilt_dir / "arm64-0123456789abcdef0123456789abcdef.gz"
    with gzip.open(stale, "wb") as f:
        f.write(b"\x7fELF stale")
    assert hb.prebuilt_path("arm64") is None
    monkeypatch.setenv("PATH", str(tmp_path))           # neither compiler nor qemu
    missing = " ".join(hb.missing_tools("arm64"))
    assert "aarch64-linux-gnu-gcc" in missing           # the compiler is still required
    with pytest.raises(hb.CryptoError):
        hb.build_helper("arm64")                        # lazy build (which cannot run here), not the stale one


def test_the_key_follows_sources_flags_and_dispatcher():
    cores = arch_cores("arm64")
    base = _key("arm64", cores)
    assert base == _key("arm64")                         # stable
    name = sorted(cores)[0]
    changed = dict(cores, **{name: dataclasses.replace(cores[name], cflags=cores[name].cflags + ("-O3",))})
    assert _key("arm64", changed) != base
    fns = hb.functions_of(cores)
    assert hb.source_key("arm64", cores, hb.dispatcher_source(fns) + "\n", arch_dir("arm64")) != base
    assert _key("arm") != base


def test_the_key_does_not_depend_on_where_the_package_lies(tmp_path):
    """Copied elsewhere (the wheel's site-packages), the same sources give the same key."""
    import shutil
    root = os.path.dirname(os.path.dirname(arch_dir("arm64")))
    for sub in ("arch", "algs"):
        shutil.copytree(os.path.join(root, sub), tmp_path / sub,
                        ignore=shutil.ignore_patterns("*.so", "__pycache__", "*.o"))
    cores = arch_cores("arm64")
    moved = {}
    for n, c in cores.items():
        flags = tuple("-I" + str(tmp_path / os.path.relpath(f[2:], root)) if f.startswith("-I") else f
                      for f in c.cflags)
        moved[n] = dataclasses.replace(c, cflags=flags)
    disp = hb.dispatcher_source(hb.functions_of(cores))
    assert hb.source_key("arm64", moved, disp, str(tmp_path / "arch" / "arm64")) == _key("arm64", cores)
