"""Userspace tools on crypto_api: boot, listing, self-test, speed, kcapi-enc style
file encryption and a dm-crypt compatible disk-image tool.  Each command is one
module with ``register(subparsers)``; ``crypto_api.__main__`` collects them."""
