"""crypto_api.dmcrypt is a package of its own, outside the core.

``import crypto_api`` does not load it (checked in a fresh interpreter); the
names the core used to hold are served from it at first use, the very same
objects: ``crypto_api.VolumeCipher``, ``from crypto_api import ivgen``.  A
name neither bound nor served is an AttributeError naming it.
"""

import importlib
import subprocess
import sys

import pytest

import crypto_api as capi
from crypto_api import dmcrypt


def test_import_crypto_api_loads_no_dmcrypt_module():
    code = ("import sys, crypto_api\n"
            "print(sorted(m for m in sys.modules if m.startswith('crypto_api.dmcrypt')))\n"
            "crypto_api.VolumeCipher\n"
            "print('crypto_api.dmcrypt.sector' in sys.modules)\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["[]", "True"]


@pytest.mark.parametrize("name, module, attr", [
    ("VolumeCipher", "crypto_api.dmcrypt.sector", "VolumeCipher"),
    ("ivgen", "crypto_api.dmcrypt.ivgen", None),
    ("cipher_spec", "crypto_api.dmcrypt.cipher_spec", None),
    ("sector", "crypto_api.dmcrypt.sector", None),
    ("sector_batch", "crypto_api.dmcrypt.sector_batch", None),
    ("sector_workers", "crypto_api.dmcrypt.sector_workers", None),
])
def test_the_old_names_are_the_packages_objects(name, module, attr):
    want = importlib.import_module(module)
    if attr is not None:
        want = getattr(want, attr)
    assert getattr(capi, name) is want
    namespace = {}
    exec(f"from crypto_api import {name}", namespace)
    assert namespace[name] is want
    assert name in dir(capi)


def test_a_name_not_served_is_an_attribute_error():
    with pytest.raises(AttributeError, match="'no_such_name'"):
        capi.no_such_name
    with pytest.raises(ImportError):
        exec("from crypto_api import no_such_name", {})


def test_the_package_names_what_it_exports():
    assert dmcrypt.VolumeCipher is capi.VolumeCipher
    for name in dmcrypt.__all__:
        assert getattr(dmcrypt, name) is not None
    assert dmcrypt.parse_cipher_spec("aes-xts-plain64").algorithm == "xts(aes)"
