"""Module vmx_crypto: what the kernel's vmx.c registers (drivers/crypto/vmx/vmx.c,
arch/powerpc/crypto/vmx.c from 6.8), every version 5.0-6.19.

No crypto- aliases: the kernel loads the module at boot by CPU feature
(module_cpu_feature_match(PPC_MODULE_FEATURE_VEC_CRYPTO); here
``MODULE_CPU_FEATURE = "vcrypto"``); without it init is ENODEV and nothing
registers.  In the order of 6.x's p8_init: ``p8_ghash`` (shash ``ghash``,
1000), ``p8_aes`` (cipher ``aes``, 1000), ``p8_aes_cbc``, ``p8_aes_ctr``,
``p8_aes_xts`` (skciphers, 2000); a failure unregisters what was
registered.  The drivers live in aes_p8_glue.py, aes_cbc_glue.py,
aes_ctr_glue.py, aes_xts_glue.py and ghash_glue.py; each C core is its own
(cores_ppc.py, cores_vmx.py).
"""

from __future__ import annotations

import crypto_api as capi
from crypto_api.arch.ppc64le import aes_cbc_glue, aes_ctr_glue, aes_p8_glue, aes_xts_glue, ghash_glue
from crypto_api.arch.ppc64le import vmx_skcipher, vsx_glue
from crypto_api.errors import CryptoError

MODULE_ARCH = "ppc64le"
MODULE_NAME = "vmx_crypto"
MODULE_ALIASES = ()
MODULE_CPU_FEATURE = "vcrypto"

MODE_CORES = ("aes_p8", "aes_p8_cbc", "aes_p8_ctr", "aes_p8_xts")
#: (unregister, alg) of what module_init registered, in order
_REGISTERED: list = []


def module_init() -> None:
    vsx_glue.require_feature("vcrypto", MODULE_NAME, "the POWER8 vector-crypto feature")
    for name in MODE_CORES:
        vmx_skcipher.CORES[name] = vsx_glue.load_core(name)
    aes_p8_glue.set_core(vmx_skcipher.core("aes_p8"))
    steps = ((capi.crypto_register_shash, capi.crypto_unregister_shash, ghash_glue.make_alg(ghash_glue.load_core())),
             (capi.crypto_register_cipher, capi.crypto_unregister_cipher, aes_p8_glue.make_alg()),
             (capi.crypto_register_skcipher, capi.crypto_unregister_skcipher, aes_cbc_glue.make_alg()),
             (capi.crypto_register_skcipher, capi.crypto_unregister_skcipher, aes_ctr_glue.make_alg()),
             (capi.crypto_register_skcipher, capi.crypto_unregister_skcipher, aes_xts_glue.make_alg()))
    try:
        for register, unregister, alg in steps:
            register(alg)
            _REGISTERED.append((unregister, alg))
    except CryptoError:
        module_exit()
        raise


def module_exit() -> None:
    while _REGISTERED:
        unregister, alg = _REGISTERED.pop()
        unregister(alg)
    vmx_skcipher.CORES.clear()
