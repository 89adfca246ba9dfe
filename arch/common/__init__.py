"""Code that more than one machine's drivers share (none of it is a machine or a module).

The glue plumbing of the machines whose cores load through
crypto_api.machine.backend (glue.py), and the NEON drivers' parts that the
arm and arm64 machines both build: the v5.0 ChaCha NEON request path, the
NHPoly1305 NEON glue, the scalar table AES glue, and the C they compile
(nh_neon.c, nhpoly1305_neon.c, aes_arm64.c; c_sources.py names them).
"""
