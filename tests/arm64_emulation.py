"""Whether arm64 code can run here (qemu-user and the cross compiler), and
how an emulated test reacts when it cannot: a skip naming the missing
package, or — with CRYPTO_API_REQUIRE_EMULATION=1 (CI) — a failure."""

import os
import subprocess
import sys
from typing import Dict, Optional

import pytest

from crypto_api.machine.helper_build import missing_tools

REQUIRE_VAR = "CRYPTO_API_REQUIRE_EMULATION"


def require_emulation(arch: str = "arm64") -> None:
    """Skip (or fail, when required) unless ``arch`` code can be built and run."""
    miss = missing_tools(arch)
    if not miss:
        return
    msg = f"{arch} emulation unavailable: missing " + ", ".join(miss)
    if os.environ.get(REQUIRE_VAR) == "1":
        pytest.fail(f"{msg} ({REQUIRE_VAR}=1 requires it)")
    pytest.skip(msg)


def arm64_env(cpu: str = "max", extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    env = dict(os.environ, CRYPTO_API_ARCH="arm64", CRYPTO_API_CPU=cpu)
    env.update(extra or {})
    return env


def run_python(code: str, cpu: str = "max", env: Optional[Dict[str, str]] = None,
               check: bool = True) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter booted as an arm64 machine."""
    r = subprocess.run([sys.executable, "-c", code], env=env or arm64_env(cpu),
                       capture_output=True, text=True)
    if check:
        assert r.returncode == 0, f"rc {r.returncode}\nstdout:\n{r.stdout}\nstderr:\n{r.stderr}"
    return r


def run_cli(*args: str, env: Optional[Dict[str, str]] = None) -> subprocess.CompletedProcess:
    """``python -m crypto_api ARGS`` (the caller passes --arch/--cpu)."""
    return subprocess.run([sys.executable, "-m", "crypto_api", *args], env=env or dict(os.environ),
                          capture_output=True, text=True)
