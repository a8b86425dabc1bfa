"""The ISA string of the closest spelling (``tcfg_riscv.spelling``): LLVM's canonical order, base ``e`` or ``i``."""

from __future__ import annotations

from tcfg_riscv.spelling import isa_string


def test_single_letters_in_canonical_order_then_z_s_x() -> None:
    exts = {"c", "m", "a", "d", "f", "v", "zvl256b", "zba", "zicsr", "svinval", "xtheadba", "zfh"}
    assert isa_string(64, exts) == "rv64imafdcv_zicsr_zfh_zba_zvl256b_svinval_xtheadba"


def test_the_base_is_e_when_the_target_has_it() -> None:
    assert isa_string(32, {"e", "m", "c"}) == "rv32emc"
    assert isa_string(32, set()) == "rv32i"
