"""``crypto-api speed --goals``, second phase: the rows measured with AVX-512 on.

No kernel counterpart.  The first phase masks AVX-512 (the goals are stated
for an AVX2 machine); speed round 3's rows 6-9 (crypto_api.tools.speed_goals,
``wide`` rows) are stated for the AVX-512 machine itself, both sides at their
best: Poly1305 and the one-pass ChaCha20-Poly1305 against ``cryptography``,
ARIA's CTR and XTS against AES's CTR.  A driver's code is chosen when its
module loads, so the mask cannot be lifted inside the run: this phase is a
child ``crypto-api speed`` with no mask (and no ``OPENSSL_ia32cap``), the
same samples and time budget, under the composite registry (the kernels
from 6.16 have no ``poly1305`` algorithm, and every driver these rows name
is there); its report is kept whole as the first report's ``wide``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from typing import List

from .speed_goals import WIDE_ALGS, WIDE_SIZES

#: environment variables that would carry the first phase's mask or kernel into the child
_DROPPED = ("OPENSSL_ia32cap", "CRYPTO_API_CPU_MASK", "CRYPTO_API_KERNEL")


def command(args, json_path: str) -> List[str]:
    """The child's command line for the first phase's ``args``."""
    cmd = [sys.executable, "-m", "crypto_api", "speed", "--kernel", "composite", "--peers", "--no-slope",
           "--format", "table", "--sizes", ",".join(str(s) for s in WIDE_SIZES),
           "--repeat", str(args.repeat), "--time-budget", str(args.time_budget), "--json", json_path]
    if args.cpu_mhz:
        cmd += ["--cpu-mhz", str(args.cpu_mhz)]
    for alg in WIDE_ALGS:
        cmd += ["--alg", alg]
    return cmd


def measure(args) -> dict:
    """The second phase's report, or ``{"error": ...}`` saying why there is none."""
    env = {k: v for k, v in os.environ.items() if k not in _DROPPED}
    with tempfile.TemporaryDirectory(prefix="crypto-api-goals-") as tmp:
        path = os.path.join(tmp, "wide.json")
        run = subprocess.run(command(args, path), env=env, capture_output=True, text=True)
        if run.returncode != 0 or not os.path.exists(path):
            tail = (run.stderr.strip().splitlines() or ["no output"])[-1]
            return {"error": f"the AVX-512 phase failed (exit status {run.returncode}): {tail}",
                    "results": []}
        with open(path, encoding="utf-8") as f:
            return json.load(f)
