"""TVM's own target tests, re-expressed: every fact that Apache TVM v0.23.0's
``tests/python/target/`` files assert, checked through :mod:`tcfg.compat.tvm`.

The expected values are TVM's facts; the code is ours. A fact tcfg answers differently on
purpose is marked ``xfail(strict=True)`` with the reason, and listed in docs/from-tvm.md
("TVM's target tests"), with the counts :mod:`interop.tvm_facts.facts` reports.
"""
