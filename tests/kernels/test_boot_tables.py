"""The table's boot-time facts against this project's modules: the device-table
rows of arm64 and ppc64le say what the modules' MODULE_CPU_FEATURE says, and
a renamed driver is found by its new name as the first lookup of a process."""

import ast
import os
import platform
import subprocess
import sys
from pathlib import Path

from crypto_api.arch.x86.cpufeature import boot_cpu_has
from crypto_api.kernels import KNOWN, query
from crypto_api.kernels.table import device_tables

ROOT = Path(__file__).resolve().parents[2]


def declared(path):
    """(MODULE_NAME, MODULE_CPU_FEATURE) assigned at the top of a module's source."""
    values = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for t in node.targets:
                if isinstance(t, ast.Name):
                    values[t.id] = node.value.value
    return values.get("MODULE_NAME"), values.get("MODULE_CPU_FEATURE")


def test_cpu_feature_modules_have_device_table_rows_in_every_version_they_exist():
    """Each module declaring MODULE_CPU_FEATURE (coldplugged in every mode) has
    a DEVICE_TABLES row with that feature, covering every version whose
    table rows name that module."""
    found = 0
    for machine_dir in ("arm64", "arm", "ppc64le"):
        arch = machine_dir
        for path in sorted((ROOT / "arch" / machine_dir).glob("*.py")):
            name, feature = declared(path)
            if not feature:
                continue
            found += 1
            rows = [t for t in device_tables() if t.module == name and arch in t.machines]
            assert rows and all(feature in t.features for t in rows), (name, feature)
            for version in KNOWN:
                has_drivers = any(r.module == name for r in query.rows_for(version, arch))
                if has_drivers:
                    assert any(query.covers(t, version) for t in rows), (name, version)
    assert found >= 3


def test_a_renamed_driver_is_found_by_its_new_name_first():
    code = ("import crypto_api as capi\ncapi.boot(kernel='6.18')\n"
            "print(capi.crypto_alloc_skcipher('xchacha12-lib').alg.cra_module)\n"
            "print(capi.crypto_alloc_shash('sha256-lib').alg.cra_driver_name)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("CRYPTO_API_KERNEL", "CRYPTO_API_ARCH", "CRYPTO_API_CPU")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    # on x86 with SSSE3 the x86 module's *-lib drivers hold the names from 6.18
    module = "chacha_x86_64" if platform.machine() == "x86_64" and boot_cpu_has("ssse3") else "chacha_generic"
    assert out.stdout.split() == [module, "sha256-lib"]
