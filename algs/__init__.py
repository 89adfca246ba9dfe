"""Generic algorithm drivers and templates (the kernel's crypto/*_generic.c, adiantum.c).

Each driver module is portable C bound through cffi (``_*.so`` built from the
``build_*.py`` script beside the C) plus a thin Python glue module that
declares descriptors and aliases and registers them in ``module_init``.
"""
