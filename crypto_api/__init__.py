"""crypto_api: the Linux kernel crypto API, in userspace.

Importing this package loads only the core (registry, types, walk, FPU
model, test manager, and the crypto manager that subscribes the self-tests
and the template probe to the registry's notifier chain); algorithm modules
load on demand through their ``crypto-<name>`` aliases, exactly as the
kernel's request_module does.

    import crypto_api as capi
    tfm = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
    tfm.setkey(key)
    ct = tfm.encrypt(sector, iv)
"""

from . import algboss, testmgr
from .aead import (AeadRequest, CryptoAead, aead_register_instance, aead_request_alloc,
                   aead_request_complete, aead_request_free, aead_request_set_ad,
                   aead_request_set_callback, aead_request_set_crypt, aead_request_set_tfm,
                   crypto_aead_authsize, crypto_aead_blocksize, crypto_aead_ctx,
                   crypto_aead_decrypt, crypto_aead_encrypt, crypto_aead_ivsize,
                   crypto_aead_maxauthsize, crypto_aead_reqtfm, crypto_aead_setauthsize,
                   crypto_aead_setkey, crypto_alloc_aead, crypto_free_aead, crypto_grab_aead,
                   crypto_spawn_aead)
from .completion import CryptoWait, crypto_init_wait, crypto_req_done, crypto_wait_req
from .alg import *  # noqa: F401,F403  (flag and type constants, descriptors)
from .alg import AeadAlg, CipherAlg, ShashAlg, SkcipherAlg
from .algapi import (crypto_register_aead, crypto_register_aeads, crypto_unregister_aead,
                     crypto_unregister_aeads)
from .algapi import (crypto_register_alg, crypto_register_cipher, crypto_register_shash,
                     crypto_register_shashes, crypto_register_skcipher,
                     crypto_register_skciphers, crypto_unregister_alg,
                     crypto_unregister_cipher, crypto_unregister_shash,
                     crypto_unregister_shashes, crypto_unregister_skcipher,
                     crypto_unregister_skciphers)
from .cipher import (CryptoCipher, crypto_alloc_cipher, crypto_cipher_ctx,
                     crypto_cipher_decrypt_one, crypto_cipher_encrypt_one,
                     crypto_cipher_setkey, crypto_free_cipher, crypto_grab_cipher)
from .errors import CryptoError
from .fpu import (DECLINE, GENERIC, SIMD, FpuTrace, FpuUsageError, crypto_simd_usable,
                  fpu_account, fpu_trace, fpu_tracing, in_kernel_fpu, interrupt_context,
                  softirq_context,
                  irq_fpu_usable, kernel_fpu_begin, kernel_fpu_end, kernel_fpu_yield,
                  simd_choice, simd_fpu_begin, may_use_simd, might_sleep, simd_disabled)
from .fpu import machine_sections as _machine_sections
from .kernels import boot
from .modules import (MODULE_ALIAS_CRYPTO, insmod, load_all, loaded_modules,
                      request_module, require_cpu, rmmod)
from .notifier import (CRYPTO_MSG_ALG_LOADED, CRYPTO_MSG_ALG_REGISTER, CRYPTO_MSG_ALG_REQUEST,
                       NOTIFY_BAD, NOTIFY_DONE, NOTIFY_OK, NOTIFY_STOP, NOTIFY_STOP_MASK,
                       NotifierBlock, crypto_register_notifier, crypto_unregister_notifier)
from .proc import proc_crypto
from .registry import CryptoAlg, crypto_has_alg
from .scatterlist import Scatterlist, sg_init_one, sg_init_table, sg_nbytes, sg_set_buf
from .shash import (CryptoShash, ShashDesc, crypto_alloc_shash, crypto_free_shash,
                    crypto_grab_shash, crypto_shash_ctx, crypto_shash_digest, crypto_shash_export,
                    crypto_shash_final, crypto_shash_finup, crypto_shash_import,
                    crypto_shash_init, crypto_shash_setkey, crypto_shash_update,
                    shash_desc_ctx)
from .skcipher import (CryptoSkcipher, SkcipherRequest, crypto_alloc_skcipher,
                       crypto_alloc_sync_skcipher, crypto_free_skcipher, crypto_grab_skcipher,
                       crypto_skcipher_alg, crypto_skcipher_blocksize, crypto_skcipher_ctx,
                       crypto_skcipher_decrypt, crypto_skcipher_encrypt,
                       crypto_skcipher_ivsize, crypto_skcipher_reqtfm,
                       crypto_skcipher_setkey, skcipher_request_alloc,
                       skcipher_request_free, skcipher_request_set_callback,
                       skcipher_request_set_crypt, skcipher_request_set_tfm)
from .template import (CryptoAttrAlg, CryptoAttrType, CryptoAttrU32, CryptoSpawn, Template,
                       crypto_attr_alg_name, crypto_attr_u32, crypto_check_attr_type,
                       crypto_get_attr_type, crypto_grab_spawn, crypto_inst_name,
                       crypto_register_instance, crypto_register_template, crypto_register_templates,
                       crypto_requires_sync,
                       crypto_spawn_cipher, crypto_spawn_shash, crypto_spawn_skcipher,
                       crypto_unregister_template, crypto_unregister_templates, parse_template_name,
                       skcipher_register_instance, split_template_name)
from .walk import SkcipherWalk, skcipher_walk_done, skcipher_walk_virt

__version__ = "0.1.0"

#: Names served from outside the core, imported at their first use (PEP 562):
#: the dm-crypt helpers live in their own package, crypto_api.dmcrypt (the
#: top-level dmcrypt/ folder), which ``import crypto_api`` does not load.
#: ``crypto_api.VolumeCipher`` and ``from crypto_api import ivgen`` keep working.
_LAZY = {
    "VolumeCipher": ("crypto_api.dmcrypt", "VolumeCipher"),
    "cipher_spec": ("crypto_api.dmcrypt.cipher_spec", None),
    "ivgen": ("crypto_api.dmcrypt.ivgen", None),
    "sector": ("crypto_api.dmcrypt.sector", None),
    "sector_batch": ("crypto_api.dmcrypt.sector_batch", None),
    "sector_workers": ("crypto_api.dmcrypt.sector_workers", None),
}


def __getattr__(name: str) -> object:
    """A name of :data:`_LAZY`, imported now and kept; AttributeError for any other."""
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib
    module = importlib.import_module(where[0])
    value = module if where[1] is None else getattr(module, where[1])
    globals()[name] = value
    return value


def __dir__() -> "list[str]":
    return sorted(set(globals()) | set(_LAZY))


#: The public API: kernel names, their descriptors and constants, the type aliases
#: of its annotations (BytesLike, WritableBuffer, AlgDescriptor), and testmgr.
__all__ = [
    # the emulated kernel version, machine and CPU (crypto_api.kernels)
    "boot",
    # the AEAD type and asynchronous completion
    "AeadAlg", "AeadRequest", "CryptoAead", "CryptoWait", "aead_register_instance",
    "aead_request_alloc", "aead_request_complete", "aead_request_free", "aead_request_set_ad",
    "aead_request_set_callback", "aead_request_set_crypt", "aead_request_set_tfm",
    "crypto_aead_authsize", "crypto_aead_blocksize", "crypto_aead_ctx", "crypto_aead_decrypt",
    "crypto_aead_encrypt", "crypto_aead_ivsize", "crypto_aead_maxauthsize", "crypto_aead_reqtfm",
    "crypto_aead_setauthsize", "crypto_aead_setkey", "crypto_alloc_aead", "crypto_free_aead",
    "crypto_grab_aead", "crypto_init_wait", "crypto_register_aead", "crypto_register_aeads",
    "crypto_req_done", "crypto_spawn_aead", "crypto_unregister_aead", "crypto_unregister_aeads",
    "crypto_wait_req",
    "ALG_KINDS", "AlgDescriptor", "BytesLike", "CRYPTO_ALG_ASYNC", "CRYPTO_ALG_DEAD",
    "CRYPTO_ALG_DYING", "CRYPTO_ALG_INSTANCE", "CRYPTO_ALG_INTERNAL", "CRYPTO_ALG_KERN_DRIVER_ONLY",
    "CRYPTO_ALG_LARVAL", "CRYPTO_ALG_NEED_FALLBACK", "CRYPTO_ALG_NOLOAD", "CRYPTO_ALG_OPTIONAL_KEY",
    "CRYPTO_ALG_TESTED", "CRYPTO_ALG_TYPE_ABLKCIPHER", "CRYPTO_ALG_TYPE_AEAD",
    "CRYPTO_ALG_TYPE_AHASH", "CRYPTO_ALG_TYPE_AHASH_MASK", "CRYPTO_ALG_TYPE_AKCIPHER",
    "CRYPTO_ALG_TYPE_BLKCIPHER", "CRYPTO_ALG_TYPE_BLKCIPHER_MASK", "CRYPTO_ALG_TYPE_CIPHER",
    "CRYPTO_ALG_TYPE_COMPRESS", "CRYPTO_ALG_TYPE_HASH", "CRYPTO_ALG_TYPE_HASH_MASK",
    "CRYPTO_ALG_TYPE_KPP", "CRYPTO_ALG_TYPE_MASK", "CRYPTO_ALG_TYPE_RNG", "CRYPTO_ALG_TYPE_SHASH",
    "CRYPTO_ALG_TYPE_SKCIPHER", "CRYPTO_MAX_ALG_NAME", "CRYPTO_TFM_NEED_KEY",
    "CRYPTO_TFM_REQ_FORBID_WEAK_KEYS", "CRYPTO_TFM_REQ_MASK", "CRYPTO_TFM_REQ_MAY_BACKLOG",
    "CRYPTO_TFM_REQ_MAY_SLEEP", "CRYPTO_TFM_RES_BAD_KEY_LEN", "CipherAlg", "CryptoAlg",
    "CryptoAlgBase", "CryptoAttrAlg", "CryptoAttrType", "CryptoAttrU32", "CryptoCipher",
    "CryptoError", "CryptoShash", "CryptoSkcipher", "CryptoSpawn", "FpuTrace", "FpuUsageError",
    "HASH_MAX_DESCSIZE", "HASH_MAX_DIGESTSIZE", "HASH_MAX_STATESIZE", "MAX_ALGAPI_ALIGNMASK",
    "MAX_ALGAPI_BLOCKSIZE", "MAX_CIPHER_ALIGNMASK", "MAX_CIPHER_BLOCKSIZE",
    "MODULE_ALIAS_CRYPTO", "PAGE_SIZE", "Scatterlist", "ShashAlg", "ShashDesc", "SkcipherAlg",
    "SkcipherRequest", "SkcipherWalk", "Template", "WritableBuffer", "crypto_alloc_cipher",
    "crypto_alloc_shash", "crypto_alloc_skcipher", "crypto_alloc_sync_skcipher",
    "crypto_attr_alg_name", "crypto_attr_u32", "crypto_check_attr_type", "crypto_cipher_ctx",
    "crypto_cipher_decrypt_one", "crypto_cipher_encrypt_one", "crypto_cipher_setkey",
    "crypto_free_cipher", "crypto_free_shash", "crypto_free_skcipher", "crypto_get_attr_type",
    "crypto_grab_cipher", "crypto_grab_shash", "crypto_grab_skcipher", "crypto_has_alg",
    "crypto_inst_name", "crypto_register_alg", "crypto_register_cipher", "crypto_register_instance",
    "crypto_register_shash", "crypto_register_shashes", "crypto_register_skcipher",
    "crypto_register_skciphers", "crypto_register_template", "crypto_register_templates",
    "crypto_requires_sync",
    "crypto_shash_ctx", "crypto_shash_digest", "crypto_shash_export", "crypto_shash_final",
    "crypto_shash_finup", "crypto_shash_import", "crypto_shash_init", "crypto_shash_setkey",
    "crypto_shash_update", "crypto_simd_usable", "crypto_skcipher_alg", "crypto_skcipher_blocksize",
    "crypto_skcipher_ctx", "crypto_skcipher_decrypt", "crypto_skcipher_encrypt",
    "crypto_skcipher_ivsize", "crypto_skcipher_reqtfm", "crypto_skcipher_setkey",
    "crypto_spawn_cipher", "crypto_spawn_shash", "crypto_spawn_skcipher", "crypto_unregister_alg",
    "crypto_unregister_cipher", "crypto_unregister_shash", "crypto_unregister_shashes",
    "crypto_unregister_skcipher", "crypto_unregister_skciphers", "crypto_unregister_template",
    "crypto_unregister_templates",
    "fpu_account", "fpu_trace", "fpu_tracing", "in_kernel_fpu", "insmod",
    "interrupt_context", "softirq_context", "irq_fpu_usable", "kernel_fpu_begin", "kernel_fpu_end", "kernel_fpu_yield",
    "load_all", "loaded_modules", "may_use_simd", "might_sleep", "parse_template_name",
    "proc_crypto", "request_module", "require_cpu", "rmmod", "sg_init_one", "sg_init_table",
    "sg_nbytes", "sg_set_buf", "shash_desc_ctx", "simd_disabled", "simd_fpu_begin",
    "skcipher_register_instance", "skcipher_request_alloc", "skcipher_request_free",
    "skcipher_request_set_callback", "skcipher_request_set_crypt", "skcipher_request_set_tfm",
    "skcipher_walk_done", "skcipher_walk_virt", "testmgr", "type_name",
    # the notifier chain and the crypto manager that subscribes to it
    "CRYPTO_MSG_ALG_LOADED", "CRYPTO_MSG_ALG_REGISTER", "CRYPTO_MSG_ALG_REQUEST", "NOTIFY_BAD",
    "NOTIFY_DONE", "NOTIFY_OK", "NOTIFY_STOP", "NOTIFY_STOP_MASK", "NotifierBlock",
    "crypto_grab_spawn", "crypto_register_notifier", "crypto_unregister_notifier",
    "split_template_name",
    # the one SIMD decision of the direct paths
    "DECLINE", "GENERIC", "SIMD", "simd_choice",
    # dm-crypt volumes, sector by sector
    "VolumeCipher",
]

# The begin/end pairs of the machines' SIMD units (kernel_neon_begin/end,
# enable_kernel_vsx/disable_kernel_vsx, ...): each machine's descriptor
# declares its own (crypto_api.machine.spec), as each kernel arch exports them.
_sections = _machine_sections()
globals().update(_sections)
__all__ += sorted(_sections)
del _sections
