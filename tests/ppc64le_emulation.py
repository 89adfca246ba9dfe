"""Booting a fresh interpreter or the CLI as the emulated ppc64le machine."""

import os
import subprocess

from arm64_emulation import run_cli, run_python

CPUS = ("power8", "power9", "power10")


def ppc_env(cpu: str) -> dict:
    return dict(os.environ, CRYPTO_API_ARCH="ppc64le", CRYPTO_API_CPU=cpu)


def ppc_python(code: str, cpu: str) -> subprocess.CompletedProcess:
    return run_python(code, env=ppc_env(cpu))


def ppc_cli(cpu: str, *args: str) -> subprocess.CompletedProcess:
    return run_cli("--arch", "ppc64le", "--cpu", cpu, *args)
