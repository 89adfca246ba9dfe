"""insmod refuses a file that is already loaded before running it again, and
a file that is no module (no module_init/module_exit) with ENOEXEC."""

import errno

import pytest

import crypto_api as capi

DRIVER = '''
import crypto_api as capi
RUNS = []
RUNS.append(1)
MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("insmodtwice")
def module_init():
    RUNS.append("init")
def module_exit():
    pass
'''


def test_second_insmod_of_the_same_file_is_eexist_without_rerunning(tmp_path):
    path = tmp_path / "insmod_twice_mod.py"
    path.write_text(DRIVER)
    name = capi.insmod(str(path))
    try:
        import sys
        mod = sys.modules["crypto_api_insmod_insmod_twice_mod"]
        runs = list(mod.RUNS)
        with pytest.raises(capi.CryptoError) as e:
            capi.insmod(str(path))
        assert e.value.errno == errno.EEXIST and "already loaded" in str(e.value)
        assert sys.modules["crypto_api_insmod_insmod_twice_mod"].RUNS == runs
    finally:
        capi.rmmod(name)


def test_file_without_module_init_is_enoexec(tmp_path):
    path = tmp_path / "not_a_module.py"
    path.write_text("X = 1\n")
    with pytest.raises(capi.CryptoError) as e:
        capi.insmod(str(path))
    assert e.value.errno == errno.ENOEXEC and "module_init" in str(e.value)
