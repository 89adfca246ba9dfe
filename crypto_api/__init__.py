"""crypto_api: the Linux kernel crypto API, in userspace.

Importing this package loads only the core (registry, types, walk, FPU
model, test manager); algorithm modules load on demand through their
``crypto-<name>`` aliases, exactly as the kernel's request_module does.

    import crypto_api as capi
    tfm = capi.crypto_alloc_skcipher("adiantum(xchacha12,aes)")
    tfm.setkey(key)
    ct = tfm.encrypt(sector, iv)
"""

from . import testmgr
from .alg import *  # noqa: F401,F403  (flag and type constants, descriptors)
from .alg import CipherAlg, ShashAlg, SkcipherAlg
from .algapi import (crypto_register_alg, crypto_register_cipher, crypto_register_shash,
                     crypto_register_shashes, crypto_register_skcipher,
                     crypto_register_skciphers, crypto_unregister_alg,
                     crypto_unregister_cipher, crypto_unregister_shash,
                     crypto_unregister_shashes, crypto_unregister_skcipher,
                     crypto_unregister_skciphers)
from .cipher import (CryptoCipher, crypto_alloc_cipher, crypto_cipher_ctx,
                     crypto_cipher_decrypt_one, crypto_cipher_encrypt_one,
                     crypto_cipher_setkey, crypto_free_cipher)
from .errors import CryptoError
from .fpu import (MODE_TRACE, FpuTrace, FpuUsageError, crypto_simd_usable, fast_path_mode,
                  fpu_account, fpu_trace, fpu_tracing, in_kernel_fpu, interrupt_context,
                  irq_fpu_usable, kernel_fpu_begin, kernel_fpu_end, kernel_fpu_yield,
                  simd_fpu_begin, may_use_simd, might_sleep, simd_disabled)
from .modules import (MODULE_ALIAS_CRYPTO, insmod, load_all, loaded_modules,
                      request_module, require_cpu, rmmod)
from .proc import proc_crypto
from .registry import CryptoAlg, crypto_has_alg
from .scatterlist import Scatterlist, sg_init_one, sg_init_table, sg_nbytes, sg_set_buf
from .sector import VolumeCipher
from .shash import (CryptoShash, ShashDesc, crypto_alloc_shash, crypto_free_shash,
                    crypto_shash_ctx, crypto_shash_digest, crypto_shash_export,
                    crypto_shash_final, crypto_shash_finup, crypto_shash_import,
                    crypto_shash_init, crypto_shash_setkey, crypto_shash_update,
                    shash_desc_ctx)
from .skcipher import (CryptoSkcipher, SkcipherRequest, crypto_alloc_skcipher,
                       crypto_alloc_sync_skcipher, crypto_free_skcipher,
                       crypto_skcipher_alg, crypto_skcipher_blocksize, crypto_skcipher_ctx,
                       crypto_skcipher_decrypt, crypto_skcipher_encrypt,
                       crypto_skcipher_ivsize, crypto_skcipher_reqtfm,
                       crypto_skcipher_setkey, skcipher_request_alloc,
                       skcipher_request_free, skcipher_request_set_callback,
                       skcipher_request_set_crypt, skcipher_request_set_tfm)
from .template import (CryptoAttrAlg, CryptoAttrType, CryptoAttrU32, CryptoSpawn, Template,
                       crypto_attr_alg_name, crypto_attr_u32, crypto_check_attr_type,
                       crypto_get_attr_type, crypto_grab_cipher, crypto_grab_shash,
                       crypto_grab_skcipher, crypto_inst_name, crypto_register_instance,
                       crypto_register_template, crypto_requires_sync, crypto_spawn_cipher,
                       crypto_spawn_shash, crypto_spawn_skcipher, crypto_unregister_template,
                       parse_template_name, skcipher_register_instance)
from .walk import SkcipherWalk, skcipher_walk_done, skcipher_walk_virt

__version__ = "0.1.0"
