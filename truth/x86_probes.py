"""One probe per x86 instruction-set feature: LLVM IR that llc can only compile as intended with the feature.

A probe is a function ``@p_<feature>``. An *intrinsic* probe calls an ``llvm.x86.*``
intrinsic that only the feature selects: without the feature llc fails ("Cannot
select", or a type it cannot legalise), so its absence is seen one probe per llc run.
A *generic* probe is plain IR that llc always compiles, and the feature shows in the
assembly (``regex``): ``ctpop`` becomes ``popcnt`` only with ``popcnt``, so presence and
absence are both read from one run. ``unless``: the probe cannot tell the feature apart
when the target has one of these (``avxvnni``'s VEX instruction is also reached through
``avx512vnni`` + ``avx512vl``); ``only64``: it needs 64-bit mode; ``only32``: 64-bit mode has it regardless (LLVM's
``canUseCMOV`` is true on every x86_64 subtarget, and on any with SSE). A feature without an
entry has no instruction LLVM's code generator selects for it (``sgx``, ``adx``, ``hreset``,
``pconfig``: clang reaches them through inline assembly), or only in a way no small probe
isolates (``sahf``, ``64bit``, the APX features), or LLVM selects its instructions without
checking it (``rdpru``, ``pku``'s ``rdpkru``, ``shstk``'s ``incsspd``); the sweep counts those as checked only
against the tools' feature strings.

The truth tests check every probe first on a minimal CPU with and without its feature
(:func:`truth.x86_sweep.check_probes`), so a probe that does not discriminate is a
failure, not a silent pass.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["PROBES", "Probe", "module"]


@dataclass(frozen=True)
class Probe:
    feature: str
    decls: tuple[str, ...]
    body: str
    regex: str | None = None
    only64: bool = False
    only32: bool = False
    unless: frozenset[str] = frozenset()

    @property
    def generic(self) -> bool:
        return self.regex is not None

    def present(self, asm: str) -> bool:
        """Whether the assembly of this probe's function shows the feature (generic probes)."""
        return self.regex is None or re.search(r"^\s+" + self.regex, asm, re.MULTILINE) is not None


def _fn(feature: str) -> str:
    return "p_" + re.sub(r"[^A-Za-z0-9]", "_", feature)


def _call(feature: str, intrinsic: str, ret: str, args: list[str], **kw: object) -> Probe:
    """A probe calling ``intrinsic``; an argument spelled ``"=i8 1"`` is that constant."""
    params = [a for a in args if not a.startswith("=")]
    types = ", ".join(a[1:].rsplit(" ", 1)[0] if a.startswith("=") else a for a in args)
    decl = f"declare {ret} @{intrinsic}({types})"
    names = iter(f"%a{i}" for i in range(len(params)))
    actual = ", ".join(a.removeprefix("=") if a.startswith("=") else f"{a} {next(names)}" for a in args)
    sig = ", ".join(f"{t} %a{i}" for i, t in enumerate(params))
    if ret == "void":
        body = f"define void @{_fn(feature)}({sig}) {{\n  call void @{intrinsic}({actual})\n  ret void\n}}"
    else:
        body = f"define {ret} @{_fn(feature)}({sig}) {{\n  %r = call {ret} @{intrinsic}({actual})\n  ret {ret} %r\n}}"
    return Probe(feature, (decl,), body, **kw)  # type: ignore[arg-type]


def _generic(feature: str, body: str, regex: str, decls: tuple[str, ...] = (), **kw: object) -> Probe:
    return Probe(feature, decls, body.replace("@P", "@" + _fn(feature)), regex, **kw)  # type: ignore[arg-type]


V4F, V8F, V16F = "<4 x float>", "<8 x float>", "<16 x float>"
V2I64, V4I64, V8I64 = "<2 x i64>", "<4 x i64>", "<8 x i64>"
V4I32, V8I32, V16I32 = "<4 x i32>", "<8 x i32>", "<16 x i32>"
V16I8, V64I8 = "<16 x i8>", "<64 x i8>"

_LIST = [
    _call("sse", "llvm.x86.sse.rcp.ps", V4F, [V4F]),
    _call("sse2", "llvm.x86.sse2.pmadd.wd", V4I32, ["<8 x i16>", "<8 x i16>"]),
    _call("sse3", "llvm.x86.sse3.hadd.ps", V4F, [V4F, V4F]),
    _call("ssse3", "llvm.x86.ssse3.psign.b.128", V16I8, [V16I8, V16I8]),
    _call("sse4.1", "llvm.x86.sse41.dpps", V4F, [V4F, V4F, "=i8 1"]),
    _call("sse4.2", "llvm.x86.sse42.pcmpistri128", "i32", [V16I8, V16I8, "=i8 1"]),
    _call("sse4a", "llvm.x86.sse4a.extrq", V2I64, [V2I64, V16I8]),
    _call("avx", "llvm.x86.avx.rcp.ps.256", V8F, [V8F]),
    _call("avx2", "llvm.x86.avx2.psign.d", V8I32, [V8I32, V8I32]),
    _call("avx512f", "llvm.x86.avx512.rcp14.ps.512", V16F, [V16F, V16F, "i16"]),
    _call("avx512bw", "llvm.x86.avx512.pshuf.b.512", V64I8, [V64I8, V64I8]),
    _call("avx512dq", "llvm.x86.avx512.fpclass.ps.512", "<16 x i1>", [V16F, "=i32 1"]),
    _call("avx512cd", "llvm.x86.avx512.conflict.d.512", V16I32, [V16I32]),
    _call("avx512vl", "llvm.x86.avx512.rcp14.ps.256", V8F, [V8F, V8F, "i8"]),
    _call("avx512ifma", "llvm.x86.avx512.vpmadd52l.uq.512", V8I64, [V8I64, V8I64, V8I64]),
    _call("avx512vbmi", "llvm.x86.avx512.vpermi2var.qi.512", V64I8, [V64I8, V64I8, V64I8]),
    _call("avx512bitalg", "llvm.x86.avx512.vpshufbitqmb.512", "<64 x i1>", [V64I8, V64I8]),
    _generic(
        "avx512vbmi2",
        "define <32 x i16> @P(<32 x i16> %a, <32 x i16> %b, <32 x i16> %c) {\n"
        "  %r = call <32 x i16> @llvm.fshl.v32i16(<32 x i16> %a, <32 x i16> %b, <32 x i16> %c)\n"
        "  ret <32 x i16> %r\n}",
        r"vpshldvw",
        ("declare <32 x i16> @llvm.fshl.v32i16(<32 x i16>, <32 x i16>, <32 x i16>)",),
    ),
    _generic(
        "avx512vpopcntdq",
        "define <16 x i32> @P(<16 x i32> %a) {\n"
        "  %r = call <16 x i32> @llvm.ctpop.v16i32(<16 x i32> %a)\n  ret <16 x i32> %r\n}",
        r"vpopcntd",
        ("declare <16 x i32> @llvm.ctpop.v16i32(<16 x i32>)",),
    ),
    _call("avx512bf16", "llvm.x86.avx512bf16.dpbf16ps.512", V16F, [V16F, "<32 x bfloat>", "<32 x bfloat>"]),
    _generic(
        "avx512fp16",
        "define <32 x half> @P(<32 x half> %a, <32 x half> %b) {\n"
        "  %r = fadd <32 x half> %a, %b\n  ret <32 x half> %r\n}",
        r"vaddph\s+%zmm",
    ),
    _call("avx512vp2intersect", "llvm.x86.avx512.vp2intersect.d.512", "{ <16 x i1>, <16 x i1> }", [V16I32, V16I32]),
    _call("avx512vnni", "llvm.x86.avx512.vpdpbusd.512", V16I32, [V16I32, V64I8, V64I8]),
    _call(
        "avxvnni",
        "llvm.x86.avx512.vpdpbusd.128",
        V4I32,
        [V4I32, V16I8, V16I8],
        unless=frozenset({"avx512vnni", "avx10.1"}),
    ),
    _call(
        "avxifma",
        "llvm.x86.avx512.vpmadd52l.uq.128",
        V2I64,
        [V2I64, V2I64, V2I64],
        unless=frozenset({"avx512ifma", "avx10.1"}),
    ),
    _call(
        "avxvnniint8",
        "llvm.x86.avx2.vpdpbssd.128",
        V4I32,
        [V4I32, V16I8, V16I8],
        unless=frozenset({"avx10.2"}),
    ),
    _call(
        "avxvnniint16",
        "llvm.x86.avx2.vpdpwsud.128",
        V4I32,
        [V4I32, "<8 x i16>", "<8 x i16>"],
        unless=frozenset({"avx10.2"}),
    ),
    _call("avxneconvert", "llvm.x86.vbcstnebf162ps128", V4F, ["ptr"], unless=frozenset({"avx10.2"})),
    _call("aes", "llvm.x86.aesni.aesenc", V2I64, [V2I64, V2I64]),
    _call("vaes", "llvm.x86.aesni.aesenc.256", V4I64, [V4I64, V4I64]),
    _call("pclmul", "llvm.x86.pclmulqdq", V2I64, [V2I64, V2I64, "=i8 1"]),
    _call("vpclmulqdq", "llvm.x86.pclmulqdq.256", V4I64, [V4I64, V4I64, "=i8 1"]),
    _call("gfni", "llvm.x86.vgf2p8mulb.128", V16I8, [V16I8, V16I8]),
    _call("sha", "llvm.x86.sha1nexte", V4I32, [V4I32, V4I32]),
    _call("sha512", "llvm.x86.vsha512msg1", V4I64, [V4I64, V2I64]),
    _call("sm3", "llvm.x86.vsm3msg1", V4I32, [V4I32, V4I32, V4I32]),
    _call("sm4", "llvm.x86.vsm4key4128", V4I32, [V4I32, V4I32]),
    _call("bmi", "llvm.x86.bmi.bextr.32", "i32", ["i32", "i32"]),
    _call("bmi2", "llvm.x86.bmi.pdep.32", "i32", ["i32", "i32"]),
    _call("tbm", "llvm.x86.tbm.bextri.u32", "i32", ["i32", "=i32 1025"]),
    _call("xop", "llvm.x86.xop.vpermil2ps", V4F, [V4F, V4F, V4I32, "=i8 1"]),
    _generic(
        "fma4",
        "define <4 x float> @P(<4 x float> %a, <4 x float> %b, <4 x float> %c) {\n"
        "  %r = call <4 x float> @llvm.fma.v4f32(<4 x float> %a, <4 x float> %b, <4 x float> %c)\n"
        "  ret <4 x float> %r\n}",
        r"vfmaddps",
        ("declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)",),
        unless=frozenset({"fma"}),
    ),
    _generic(
        "fma",
        "define <4 x float> @P(<4 x float> %a, <4 x float> %b, <4 x float> %c) {\n"
        "  %r = call <4 x float> @llvm.fma.v4f32(<4 x float> %a, <4 x float> %b, <4 x float> %c)\n"
        "  ret <4 x float> %r\n}",
        r"vfmadd\d{3}ps",
        ("declare <4 x float> @llvm.fma.v4f32(<4 x float>, <4 x float>, <4 x float>)",),
        unless=frozenset({"fma4"}),  # bdver2-4 have both, and LLVM picks FMA4 there
    ),
    _generic(
        "f16c",
        "define <4 x float> @P(<4 x half> %a) {\n  %r = fpext <4 x half> %a to <4 x float>\n  ret <4 x float> %r\n}",
        r"vcvtph2ps\s",
        unless=frozenset({"avx512fp16"}),
    ),
    _generic(
        "lzcnt",
        "define i32 @P(i32 %a) {\n  %r = call i32 @llvm.ctlz.i32(i32 %a, i1 false)\n  ret i32 %r\n}",
        r"lzcnt",
        ("declare i32 @llvm.ctlz.i32(i32, i1)",),
    ),
    _generic(
        "popcnt",
        "define i32 @P(i32 %a) {\n  %r = call i32 @llvm.ctpop.i32(i32 %a)\n  ret i32 %r\n}",
        r"popcnt",
        ("declare i32 @llvm.ctpop.i32(i32)",),
    ),
    _generic(
        "movbe",
        "define i32 @P(ptr %p) {\n  %v = load i32, ptr %p\n  %r = call i32 @llvm.bswap.i32(i32 %v)\n  ret i32 %r\n}",
        r"movbe",
        ("declare i32 @llvm.bswap.i32(i32)",),
    ),
    _generic(
        "cmov",
        "define i32 @P(i32 %a, i32 %b) {\n  %r = call i32 @llvm.smax.i32(i32 %a, i32 %b)\n  ret i32 %r\n}",
        r"cmov",
        ("declare i32 @llvm.smax.i32(i32, i32)",),
        only32=True,
        unless=frozenset({"sse"}),
    ),
    _generic(
        "prfchw",
        "define void @P(ptr %p) {\n  call void @llvm.prefetch.p0(ptr %p, i32 1, i32 3, i32 1)\n  ret void\n}",
        r"prefetchw\s",
        ("declare void @llvm.prefetch.p0(ptr, i32, i32, i32)",),
    ),
    _generic(
        "prefetchi",
        "define void @P(ptr %p) {\n  call void @llvm.prefetch.p0(ptr %p, i32 0, i32 3, i32 0)\n  ret void\n}",
        r"prefetchit0\s",
        ("declare void @llvm.prefetch.p0(ptr, i32, i32, i32)",),
        only64=True,
    ),
    _generic(
        "cx16",
        "define i128 @P(ptr %p, i128 %a, i128 %b) {\n  %r = cmpxchg ptr %p, i128 %a, i128 %b seq_cst seq_cst\n"
        "  %v = extractvalue { i128, i1 } %r, 0\n  ret i128 %v\n}",
        r"lock\s+cmpxchg16b",
        only64=True,
    ),
    _call("crc32", "llvm.x86.sse42.crc32.32.8", "i32", ["i32", "i8"]),
    _call("fxsr", "llvm.x86.fxsave", "void", ["ptr"]),
    _call("xsave", "llvm.x86.xsave", "void", ["ptr", "i32", "i32"]),
    _call("xsaveopt", "llvm.x86.xsaveopt", "void", ["ptr", "i32", "i32"]),
    _call("xsavec", "llvm.x86.xsavec", "void", ["ptr", "i32", "i32"]),
    _call("xsaves", "llvm.x86.xsaves", "void", ["ptr", "i32", "i32"]),
    _call("fsgsbase", "llvm.x86.rdfsbase.64", "i64", [], only64=True),
    _call("rdrnd", "llvm.x86.rdrand.32", "{ i32, i32 }", []),
    _call("rdseed", "llvm.x86.rdseed.32", "{ i32, i32 }", []),
    _call("rdpid", "llvm.x86.rdpid", "i32", []),
    _call("clflushopt", "llvm.x86.clflushopt", "void", ["ptr"]),
    _call("clwb", "llvm.x86.clwb", "void", ["ptr"]),
    _call("clzero", "llvm.x86.clzero", "void", ["ptr"]),
    _call("cldemote", "llvm.x86.cldemote", "void", ["ptr"]),
    _call("mwaitx", "llvm.x86.mwaitx", "void", ["i32", "i32", "i32"]),
    _call("kl", "llvm.x86.loadiwkey", "void", [V2I64, V2I64, V2I64, "i32"]),
    _call("widekl", "llvm.x86.aesdecwide128kl", "{ i8, " + ", ".join([V2I64] * 8) + " }", ["ptr"] + [V2I64] * 8),
    _call("invpcid", "llvm.x86.invpcid", "void", ["i32", "ptr"]),
    _call("movdiri", "llvm.x86.directstore32", "void", ["ptr", "i32"]),
    _call("movdir64b", "llvm.x86.movdir64b", "void", ["ptr", "ptr"]),
    _call("enqcmd", "llvm.x86.enqcmd", "i8", ["ptr", "ptr"]),
    _call("serialize", "llvm.x86.serialize", "void", []),
    _call("tsxldtrk", "llvm.x86.xsusldtrk", "void", []),
    _call("rtm", "llvm.x86.xtest", "i32", []),
    _call("waitpkg", "llvm.x86.umonitor", "void", ["ptr"]),
    _call("ptwrite", "llvm.x86.ptwrite32", "void", ["i32"]),
    _call("uintr", "llvm.x86.testui", "i8", [], only64=True),
    _call("wbnoinvd", "llvm.x86.wbnoinvd", "void", []),
    _call("lwp", "llvm.x86.llwpcb", "void", ["ptr"]),
    _call("cmpccxadd", "llvm.x86.cmpccxadd32", "i32", ["ptr", "i32", "i32", "=i32 1"], only64=True),
    _call("raoint", "llvm.x86.aadd32", "void", ["ptr", "i32"]),
    _call("usermsr", "llvm.x86.urdmsr", "i64", ["i64"], only64=True),
    _call("movrs", "llvm.x86.prefetchrs", "void", ["ptr"]),
    _call("amx-tile", "llvm.x86.tilerelease", "void", [], only64=True),
    _call("amx-int8", "llvm.x86.tdpbssd", "void", ["=i8 1", "=i8 2", "=i8 3"], only64=True),
    _call("amx-bf16", "llvm.x86.tdpbf16ps", "void", ["=i8 1", "=i8 2", "=i8 3"], only64=True),
    _call("amx-fp16", "llvm.x86.tdpfp16ps", "void", ["=i8 1", "=i8 2", "=i8 3"], only64=True),
    _call("amx-complex", "llvm.x86.tcmmimfp16ps", "void", ["=i8 1", "=i8 2", "=i8 3"], only64=True),
    _call("amx-fp8", "llvm.x86.tdpbf8ps", "void", ["=i8 1", "=i8 2", "=i8 3"], only64=True),
    _call("amx-tf32", "llvm.x86.tmmultf32ps", "void", ["=i8 1", "=i8 2", "=i8 3"], only64=True),
    _call("amx-movrs", "llvm.x86.tileloaddrs64", "void", ["=i8 1", "ptr", "i64"], only64=True),
]

#: feature (LLVM spelling) -> its probe.
PROBES: dict[str, Probe] = {p.feature: p for p in _LIST}


def module(probes: list[Probe]) -> str:
    """One IR module holding ``probes`` (their declarations once each)."""
    decls = dict.fromkeys(d for p in probes for d in p.decls)
    return "\n".join([*decls, *(p.body for p in probes)]) + "\n"


def function_asm(asm: str) -> dict[str, str]:
    """The assembly of each function in llc's output, by probe feature function name."""
    out: dict[str, str] = {}
    current = None
    for line in asm.splitlines():
        m = re.match(r"^(p_\w+):", line)
        if m:
            current = m.group(1)
            out[current] = ""
        elif current is not None and line.startswith("\t") and not line.startswith("\t."):
            out[current] += line + "\n"
    return out


def fn_name(feature: str) -> str:
    """The probe function's name for ``feature``."""
    return _fn(feature)
