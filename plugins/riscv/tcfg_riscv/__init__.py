"""tcfg plugin: RISC-V CPUs (a sub-parser of the ``llvm``/``c`` kinds, RISC-V tags, LLVM codegen)."""
