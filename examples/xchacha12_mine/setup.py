from setuptools import setup

setup(cffi_modules=["xchacha12_mine/build_core.py:ffibuilder"])
