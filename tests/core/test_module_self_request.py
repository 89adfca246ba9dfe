"""A module whose init looks up one of its own aliases is not loaded again.

A driver that allocates a fallback by its own algorithm name during
module_init (as the x86 one-pass ChaCha20-Poly1305 does, through the
self-test of its registration) makes the lookup miss request that name's
module: its own, still initialising.  modprobe does not load a module that is
already coming up; request_module must not either (it used to run the init
a second time, inside the first, registering everything twice).
"""

import sys

import crypto_api as capi
from crypto_api import modules

PLUGIN = '''
import crypto_api as capi
import selfreq_events

MODULE_ALIASES = capi.MODULE_ALIAS_CRYPTO("selfreqalg")


def module_init():
    selfreq_events.EVENTS.append("init")
    capi.request_module("crypto-selfreqalg")     # what a lookup miss of its own name does


def module_exit():
    selfreq_events.EVENTS.append("exit")
'''


def test_request_module_skips_the_module_being_initialised(tmp_path):
    (tmp_path / "selfreq_events.py").write_text("EVENTS = []\n")
    (tmp_path / "selfreq_plug.py").write_text(PLUGIN)
    dist = tmp_path / "selfreq_plugins-0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: selfreq-plugins\nVersion: 0.0\n")
    (dist / "entry_points.txt").write_text("[crypto_api.modules]\nselfreq_plug = selfreq_plug\n")
    sys.path.insert(0, str(tmp_path))
    modules.rescan()
    try:
        import selfreq_events
        assert capi.request_module("crypto-selfreqalg") == 1
        assert selfreq_events.EVENTS == ["init"]
        assert "selfreq_plug" in capi.loaded_modules()
        capi.rmmod("selfreq_plug")
        assert selfreq_events.EVENTS == ["init", "exit"]
    finally:
        if "selfreq_plug" in capi.loaded_modules():
            capi.rmmod("selfreq_plug")
        for name in ("selfreq_plug", "selfreq_events"):
            sys.modules.pop(name, None)
        sys.path.remove(str(tmp_path))
        modules.rescan()
