"""The AArch64 and 32-bit Arm (A, R, M profile) truth sweep.

For every CPU clang-22 lists (``--print-supported-cpus``), every architecture version in
tcfg's tables and the generic CPU, under each variant of :data:`A64_VARIANTS` or
:data:`ARM_VARIANTS` (``+ext``/``+noext`` suffixes, ``-mattr`` adds and removes,
``-march`` with a CPU, the soft-float ABI), it builds the tcfg target and compares, for
every hardware feature LLVM has (``K``):

(a) ``t.features`` with the *reference*: LLVM's subtarget for what clang-22 gives the
    backend for the equivalent clang spelling (``-mcpu``/``-march`` as written, and
    ``-mattr`` items appended to clang's feature string, which is what LLVM's ``-mattr``
    means and what llc does with it);
(b) the reference with LLVM's subtarget for what clang-22 gives the backend when run with
    ``t.codegen().clang_flags()``;
(c) the reference with LLVM's subtarget for llc-22's ``-mcpu``/``-mattr`` from
    ``t.codegen().llc_flags()``, and with llc-22 itself: per feature one instruction (as
    inline assembly, which llc assembles with the subtarget's features: an error means
    absent), checked only where the probe was first shown to discriminate; on 32-bit Arm
    also the ``.fpu`` directive llc writes and whether a 128-bit vector add uses q
    registers.

LLVM's subtarget is read with opt-22 (see ``llvm.subtarget_features``). A spelling clang
refuses must be refused by tcfg with a ``TargetError`` and one clang accepts must be
accepted: that is one more check per case.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cache

import llvm
from sweep import SweepResult

__all__ = ["A64_PROBES", "ARM_PROBES", "Case", "cases", "check_cases", "sweep"]

A64_TRIPLE = "aarch64-linux-gnu"

#: One instruction per AArch64 feature, chosen to need exactly that feature (and not be
#: valid in streaming mode where SME would also allow it). Calibrated before use.
A64_PROBES = {
    "neon": "add v0.4s, v1.4s, v2.4s",
    "fp-armv8": "fadd s0, s1, s2",
    "fullfp16": "fadd h0, h1, h2",
    "dotprod": "sdot v0.4s, v1.16b, v2.16b",
    "fp16fml": "fmlal v0.2s, v1.2h, v2.2h",
    "i8mm": "smmla v0.4s, v1.16b, v2.16b",
    "bf16": "bfdot v0.2s, v1.4h, v2.4h",
    "sve": "ldff1b {z0.b}, p0/z, [x0]",
    "sve2": "histcnt z0.s, p0/z, z1.s, z2.s",
    "sve-bitperm": "bdep z0.s, z1.s, z2.s",
    "sme": "smstart sm",
    "crc": "crc32b w0, w1, w2",
    "aes": "aese v0.16b, v1.16b",
    "sha2": "sha256h q0, q1, v2.4s",
    "sha3": "eor3 v0.16b, v1.16b, v2.16b, v3.16b",
    "sm4": "sm4e v0.4s, v1.4s",
    "lse": "ldadd w0, w1, [x2]",
    "rcpc": "ldapr w0, [x1]",
    "rcpc-immo": "ldapur w0, [x1, #4]",
    "rdm": "sqrdmlah v0.4s, v1.4s, v2.4s",
    "complxnum": "fcmla v0.4s, v1.4s, v2.4s, #0",
    "jsconv": "fjcvtzs w0, d1",
    "mte": "irg x0, x1",
    "ccidx": "mrs x0, ccsidr2_el1",
    "rme": "tlbi paall",
    "mec": "mrs x0, mecid_p0_el2",
    "fptoint": "frint32z s0, s1",
    "pan": "msr pan, #1",
    "lor": "ldlarb w0, [x1]",
    "vh": "mrs x0, contextidr_el2",
    "flagm": "cfinv",
    "altnzcv": "xaflag",
    "pauth": "pacia x0, x1",
    "sb": "sb",
    "ssbs": "msr ssbs, #1",
    "rand": "mrs x0, rndr",
    "predres": "cfp rctx, x0",
    "dit": "msr dit, #1",
    "ls64": "ld64b x0, [x1]",
    "mops": "cpyfp [x0]!, [x1]!, x2!",
    "hbc": "bc.eq #0",
    "cssc": "abs w0, w1",
    "wfxt": "wfet x0",
    "the": "rcwcas x0, x1, [x2]",
    "lse128": "swpp x0, x1, [x2]",
    "d128": "sysp #0, c2, c0, #0, x0, x1",
    "gcs": "gcspushm x0",
    "sve2p1": "pext p0.s, pn8[0]",
    "sme2": "zero {zt0}",
    "spe": "psb csync",
    "tme": "tstart x0",
    "fp8": "f1cvtl v0.8h, v1.8b",
    "faminmax": "famax v0.4s, v1.4s, v2.4s",
    "lut": "luti2 v0.16b, {v1.16b}, v2[0]",
    "cpa": "addpt x0, x1, x2",
    "rasv2": "mrs x0, erxgsr_el1",
    "xs": "dsb oshnxs",
    "lsui": "ldtadd w0, w1, [x2]",
    "occmo": "dc civaoc, x0",
    "pcdphint": "stshh keep",
}

#: One instruction per 32-bit Arm feature (Arm or Thumb as the triple says).
ARM_PROBES = {
    "neon": "vadd.i32 q0, q1, q2",
    "vfp2sp": "vadd.f32 s0, s1, s2",
    "fp64": "vadd.f64 d0, d1, d2",
    "d32": "vmov.f64 d16, d17",
    "vfp4sp": "vfma.f32 s0, s1, s2",
    "fp-armv8sp": "vrintz.f32 s0, s1",
    "fullfp16": "vadd.f16 s0, s1, s2",
    "fp16": "vcvtb.f32.f16 s0, s1",
    "dotprod": "vsdot.s8 d0, d1, d2",
    "i8mm": "vsmmla.s8 q0, q1, q2",
    "bf16": "vdot.bf16 d0, d1, d2",
    "fp16fml": "vfmal.f16 d0, s1, s2",
    "aes": "aese.8 q0, q1",
    "sha2": "sha256h.32 q0, q1, q2",
    "crc": "crc32b r0, r1, r2",
    "dsp": "qadd8 r0, r1, r2",
    "mve": "vaddv.u32 r0, q0",
    "mve.fp": "vcmul.f32 q0, q1, q2, #90",
    "hwdiv": "sdiv r0, r1, r2",
    "ras": "esb",
    "sb": "sb",
    "lob": "dls lr, r0",
    "pacbti": "pac r12, lr, sp",
    "v7clrex": "clrex",
    "acquire-release": "lda r0, [r1]",
    "8msecext": "tt r0, r1",
    "virtualization": "hvc #0",
    "trustzone": "smc #0",
}


@dataclass(frozen=True)
class Case:
    """One target: a row (CPU, architecture or generic) under one variant."""

    family: str
    row: str
    variant: str
    target: str  # tcfg's text
    triple: str  # for the reference clang run
    clang_args: tuple[str, ...]  # the equivalent clang spelling
    mattr: tuple[str, ...] = ()  # LLVM -mattr items: appended to clang's feature string


@dataclass
class _Row:
    """What a row's base is, for building variants."""

    family: str
    name: str
    kind: str  # "cpu", "arch" or "generic"
    triple: str
    profile: str = "a"
    has_fp: bool = True


Variant = Callable[[_Row], "Case | None"]


def _case(row: _Row, variant: str, opts: Sequence[str], mods: str = "", mattr: Sequence[str] = ()) -> Case | None:
    """A variant: ``opts`` extra tcfg/clang options, ``mods`` suffixes on the row's -mcpu/-march."""
    base: list[str] = []
    if row.kind == "cpu":
        base = [f"-mcpu={row.name}{mods}"]
    elif row.kind == "arch":
        base = [f"-march={row.name}{mods}"]
    elif mods:
        base = [f"-mcpu=generic{mods}"]
    else:
        base = ["-mcpu=generic"]
    if row.kind == "arch" and any(o.startswith("-march=") for o in opts):
        return None
    words = [*base, *opts]
    if mattr:
        words.append("-mattr=" + ",".join(mattr))
    target = f"llvm -mtriple={row.triple} " + " ".join(words)
    return Case(row.family, row.name, variant, target, row.triple, (*base, *opts), tuple(mattr))


A64_VARIANTS: dict[str, Variant] = {
    "bare": lambda r: _case(r, "bare", []),
    "+nosimd": lambda r: _case(r, "+nosimd", [], "+nosimd"),
    "+sve2": lambda r: _case(r, "+sve2", [], "+sve2"),
    "+fp16": lambda r: _case(r, "+fp16", [], "+fp16"),
    "+nofp16": lambda r: _case(r, "+nofp16", [], "+nofp16"),
    "+crypto+noaes": lambda r: _case(r, "+crypto+noaes", [], "+crypto+noaes"),
    "+nosve": lambda r: _case(r, "+nosve", [], "+nosve"),
    "-mattr=-aes,+sve2": lambda r: _case(r, "-mattr=-aes,+sve2", [], mattr=["-aes", "+sve2"]),
    "-mattr=-sve": lambda r: _case(r, "-mattr=-sve", [], mattr=["-sve"]),
    "-mattr=+v9a": lambda r: _case(r, "-mattr=+v9a", [], mattr=["+v9a"]),
    "-mattr=-neon": lambda r: _case(r, "-mattr=-neon", [], mattr=["-neon"]),
    "-march=armv8.2-a+dotprod": lambda r: _case(r, "-march=armv8.2-a+dotprod", ["-march=armv8.2-a+dotprod"]),
    "-march=armv9-a+nosve": lambda r: _case(r, "-march=armv9-a+nosve", ["-march=armv9-a+nosve"]),
    "-march=armv8.4-a+fp16": lambda r: _case(r, "-march=armv8.4-a+fp16", ["-march=armv8.4-a+fp16"]),
}


def _arm_mods(mods: str, profiles: str) -> Variant:
    return lambda r: _case(r, mods, [], mods) if r.profile in profiles else None


ARM_VARIANTS: dict[str, Variant] = {
    "bare": lambda r: _case(r, "bare", []),
    "+nofp": _arm_mods("+nofp", "amr"),
    "+fp": _arm_mods("+fp", "amr"),
    "+nosimd": _arm_mods("+nosimd", "ar"),
    "+simd": _arm_mods("+simd", "ar"),
    "+dotprod+i8mm+bf16": _arm_mods("+dotprod+i8mm+bf16", "a"),
    "+fp16": _arm_mods("+fp16", "amr"),
    "+crypto": _arm_mods("+crypto", "a"),
    "+nodsp": _arm_mods("+nodsp", "m"),
    "+mve.fp": _arm_mods("+mve.fp", "m"),
    "+fp.dp": _arm_mods("+fp.dp", "m"),
    "-mfloat-abi=soft": lambda r: _case(r, "-mfloat-abi=soft", ["-mfloat-abi=soft"]) if r.has_fp else None,
    "-mattr=-fp64": lambda r: _case(r, "-mattr=-fp64", [], mattr=["-fp64"]),
    "-mattr=-neon": lambda r: _case(r, "-mattr=-neon", [], mattr=["-neon"]),
    "-mattr=+dotprod": lambda r: _case(r, "-mattr=+dotprod", [], mattr=["+dotprod"]) if r.profile == "a" else None,
}


def _rows(family: str, clang: str) -> list[_Row]:
    """Every CPU clang lists, every architecture in tcfg's tables, and the generic CPU."""
    from tcfg_aarch64.facts import aarch64, arm

    if family == "aarch64":
        out = llvm.run([clang, f"--target={A64_TRIPLE}", "--print-supported-cpus"]).stdout
        out += llvm.run([clang, f"--target={A64_TRIPLE}", "--print-supported-cpus"]).stderr
        cpus = sorted(set(re.findall(r"^\s+([a-z0-9][a-z0-9.\-_]*)$", out, re.M)) - {"generic"})
        rows = [_Row(family, c, "cpu", A64_TRIPLE) for c in cpus]
        rows += [_Row(family, a, "arch", A64_TRIPLE) for a in aarch64().arches]
        return [*rows, _Row(family, "generic", "generic", A64_TRIPLE)]
    done = llvm.run([clang, "--target=arm-none-eabi", "--print-supported-cpus"])
    cpus = sorted(set(re.findall(r"^\s+([a-z0-9][a-z0-9.\-_]*)$", done.stdout + done.stderr, re.M)) - {"generic"})
    table = arm()
    rows = []
    for c in cpus:
        entry = table.cpus.get(c)
        if entry is None:  # tcfg lacks a CPU clang has: the case for it fails loudly
            rows.append(_Row(family, c, "cpu", "arm-none-eabi"))
            continue
        fp = entry.fpu != "none"
        rows.append(_Row(family, c, "cpu", f"{entry.triple_arch}-none-eabi{'hf' if fp else ''}", entry.profile, fp))
    for name, arch in table.arches.items():
        fp = bool(arch.features & table.fp_features)
        rows.append(_Row(family, name, "arch", f"{arch.triple_arch}-none-eabi{'hf' if fp else ''}", arch.profile, fp))
    rows.append(_Row(family, "generic", "generic", "armv7a-none-eabihf", "a", True))
    return rows


def cases(family: str, clang: str) -> tuple[list[_Row], dict[str, Variant], list[Case]]:
    """The rows, the variants and every applicable case of ``family``."""
    rows = _rows(family, clang)
    variants = A64_VARIANTS if family == "aarch64" else ARM_VARIANTS
    out = [c for r in rows for v in variants.values() if (c := v(r)) is not None]
    return rows, variants, out


@dataclass
class _Tools:
    clang: str
    llc: str
    opt: str
    family: str
    hardware: tuple[str, ...]
    exposed: dict[str, str]
    probes: dict[str, str]
    implies: dict[str, frozenset[str]]
    calibrated: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Features that cannot be turned on together with the rest (modes of the other profile).
    unsettable: frozenset[str] = frozenset({"mclass", "rclass", "aclass", "noarm"})

    def probes_for(self, triple: str, cpu: str) -> dict[str, str]:
        """The probes that discriminate on ``triple``: accepted with ``+F``, rejected with every other feature on."""
        key = f"{triple} {cpu}"
        if key not in self.calibrated:
            base = [f"-mtriple={triple}", f"-mcpu={cpu}"]
            good = {}
            for feat, insn in self.probes.items():
                if feat not in self.exposed:  # compared with t.features, so only what tcfg reports
                    continue
                # off: every other hardware feature on (so an instruction that another
                # feature also allows, like SVE2.1's under SME2, does not count as a probe)
                every = [f"+{f}" for f in self.hardware if f not in self.unsettable and not f.startswith("armv")]
                try:
                    on, _ = llvm.asm_probe(self.llc, [*base, f"-mattr=+{feat}"], {feat: insn}, with_asm=False)
                    off, _ = llvm.asm_probe(
                        self.llc, [*base, f"-mattr={','.join(every)},-{feat}"], {feat: insn}, with_asm=False
                    )
                except RuntimeError:
                    continue
                if on and not off:
                    good[feat] = insn
            self.calibrated[key] = good
        return self.calibrated[key]


@cache
def _clang_ref(clang: str, triple: str, args: tuple[str, ...]) -> tuple[str, str, tuple[str, ...]] | None:
    try:
        return llvm.clang_ir_attrs(clang, triple, args)
    except RuntimeError:
        return None


def _arch_of(triple: str) -> str:
    return triple.split("-", 1)[0]


@dataclass
class _Prepared:
    """A case after the clang runs and tcfg: the three configurations the backend gets."""

    case: Case
    checks: int
    problems: list[str]
    features: dict[str, object] = field(default_factory=dict)
    resolved: frozenset[str] = frozenset()
    configs: dict[str, tuple[str, str, str]] = field(default_factory=dict)
    llc_flags: list[str] = field(default_factory=list)


def _prepare(tools: _Tools, case: Case) -> _Prepared:
    import tcfg
    from tcfg.plugin import LLVMCodegen

    where = f"{case.target!r}"
    ref = _clang_ref(tools.clang, case.triple, case.clang_args)
    try:
        t = tcfg.Target(case.target)
        cg = t.codegen()
        assert isinstance(cg, LLVMCodegen), cg
    except tcfg.TargetError as exc:
        if ref is None:
            return _Prepared(case, 1, [])
        return _Prepared(
            case, 1, [f"{where}: tcfg refuses it ({exc}) but clang-22 accepts {' '.join(case.clang_args)}"]
        )
    if ref is None:
        return _Prepared(case, 1, [f"{where}: clang-22 refuses {' '.join(case.clang_args)} but tcfg accepts it"])
    ref_triple, ref_cpu, ref_items = ref
    clang_flags = [f for f in cg.clang_flags() if not f.startswith("--target=")]
    mine = _clang_ref(tools.clang, cg.triple, tuple(clang_flags))
    if mine is None:
        return _Prepared(case, 2, [f"{where}: clang-22 refuses tcfg's clang flags {clang_flags}"])
    llc_flags = cg.llc_flags()
    option = {f.split("=", 1)[0]: f.split("=", 1)[1] for f in llc_flags if "=" in f}
    feats: dict[str, object] = {name: t.features.vendor(name) for name in tools.exposed.values()}
    feats["float_abi"], feats["fpu"] = t.features["float_abi"], t.features["fpu"]
    return _Prepared(
        case,
        1,
        [],
        feats,
        frozenset(f for f, n in tools.exposed.items() if feats[n] is True),
        {
            "reference": (ref_triple, ref_cpu, ",".join((*ref_items, *case.mattr))),
            "clang flags": (mine[0], mine[1], ",".join(mine[2])),
            "llc flags": (option["-mtriple"], option["-mcpu"], option.get("-mattr", "")),
        },
        llc_flags,
    )


def check_cases(tools: _Tools, batch: Sequence[Case]) -> tuple[int, list[str]]:
    """Run cases through the tools (one opt run per triple for all of them): (checks, disagreements).

    Every comparison is of whole subtargets (all feature bits at once, see
    ``llvm.same_subtarget``); only a failed one is probed feature by feature to say
    which features differ. tcfg's view is compared as the reference with every feature
    tcfg reports forced to tcfg's value: equal subtargets mean tcfg agrees on all of them
    (tcfg's set is also checked to be closed under LLVM's implication, which that needs).
    """
    prepared = [_prepare(tools, c) for c in batch]
    pairs: dict[str, list[tuple[_Prepared, str]]] = {}
    for p in prepared:
        if not p.configs:
            continue
        ref = p.configs["reference"]
        forced = [f"+{f}" for f in sorted(p.resolved)] + [f"-{f}" for f in sorted(set(tools.exposed) - p.resolved)]
        p.configs["t.features"] = (ref[0], ref[1], ",".join(filter(None, (ref[2], *forced))))
        for tool in ("t.features", "clang flags", "llc flags"):
            pairs.setdefault(_arch_of(p.configs[tool][0]), []).append((p, tool))
    same: dict[tuple[int, str], bool] = {}
    for group in pairs.values():
        triple = group[0][0].configs[group[0][1]][0]
        got = llvm.same_subtarget(
            tools.opt, triple, [(p.configs["reference"][1:], p.configs[tool][1:]) for p, tool in group]
        )
        same.update({(id(p), tool): ok for (p, tool), ok in zip(group, got, strict=True)})
    checks, problems = 0, []
    for p in prepared:
        checks += p.checks
        problems += p.problems
        if not p.configs:
            continue
        where = f"{p.case.target!r}"
        truth: frozenset[str] | None = None
        checks += 1
        for feat in p.resolved:
            missing = (tools.implies.get(feat, frozenset()) & set(tools.exposed)) - p.resolved
            if missing:
                problems.append(
                    f"{where}: t.features has {feat} but not {', '.join(sorted(missing))}, which it implies"
                )
        checks += len(tools.exposed)  # (a)
        if not same[(id(p), "t.features")]:
            truth = _reference(tools, p)
            diff = sorted(f for f in tools.exposed if (f in truth) != (f in p.resolved))
            problems += [
                f"{where}: t.features.{tools.exposed[f]} is {p.features[tools.exposed[f]]!r}, LLVM has {f}={f in truth}"
                for f in diff
            ] or [f"{where}: t.features differ from LLVM's reference outside the features tcfg reports"]
        for tool in ("clang flags", "llc flags"):  # (b), (c)
            checks += len(tools.hardware)
            if not same[(id(p), tool)]:
                truth = truth or _reference(tools, p)
                problems += _explain(tools, p, tool, truth)
        checks_c, problems_c = _llc_itself(tools, p, truth if truth is not None else p.resolved)
        checks += checks_c
        problems += problems_c
    return checks, problems


def _reference(tools: _Tools, p: _Prepared) -> frozenset[str]:
    triple, cpu, fs = p.configs["reference"]
    return llvm.subtarget_features(tools.opt, triple, [(cpu, fs)], tools.hardware)[0]


def _key(config: tuple[str, str, str]) -> tuple[str, str, str]:
    return (_arch_of(config[0]), config[1], config[2])


def _explain(tools: _Tools, p: _Prepared, tool: str, truth: frozenset[str]) -> list[str]:
    """Which features a tool's subtarget has differently from the reference."""
    triple, cpu, fs = p.configs[tool]
    got = llvm.subtarget_features(tools.opt, triple, [(cpu, fs)], tools.hardware)[0]
    diff = sorted(got ^ truth)
    if not diff:  # the difference is outside the hardware features (tuning, modes)
        diff = ["(a feature outside the hardware set)"]
    return [f"{p.case.target!r}: {tool} ({cpu} {fs!r}) differ from LLVM's reference in {', '.join(diff)}"]


def _llc_itself(tools: _Tools, p: _Prepared, truth: frozenset[str]) -> tuple[int, list[str]]:
    """(c) with llc-22 itself: the calibrated instruction probes, and on Arm the .fpu and q registers."""
    where = f"{p.case.target!r}"
    probes = tools.probes_for(p.configs["llc flags"][0], "generic")
    accepted, asm = llvm.asm_probe(tools.llc, p.llc_flags, probes, with_asm=tools.family == "arm")
    checks, problems = 0, []
    for feat in probes:
        checks += 1
        if (feat in accepted) != (feat in truth):
            problems.append(f"{where}: llc-22 {'assembles' if feat in accepted else 'rejects'} {probes[feat]!r}")
    if tools.family == "arm" and p.features.get("float_abi") != "soft":
        fpu = re.search(r"^\s*\.fpu\s+(\S+)", asm, re.M)
        written = fpu.group(1) if fpu else "none"
        checks += 2
        if written != p.features.get("fpu"):
            problems.append(f"{where}: llc-22 writes .fpu {written}, t.features.fpu is {p.features.get('fpu')!r}")
        uses_q = re.search(r"\bq\d+\b", asm) is not None
        if uses_q != bool({"neon", "mve"} & truth):  # NEON's and MVE's vectors live in q registers
            problems.append(f"{where}: llc-22 {'uses' if uses_q else 'does not use'} q registers for a vector add")
    return checks, problems


def _tools(family: str) -> _Tools | str:
    from tcfg_aarch64.facts import aarch64, arm
    from tcfg_aarch64.parser import exposed

    found = {n: llvm.find(n) for n in ("clang-22", "llc-22", "opt-22")}
    missing = [n for n, p in found.items() if p is None]
    if missing:
        return f"{', '.join(missing)} not found (install LLVM 22: apt-get install clang-22 llvm-22)"
    table = aarch64() if family == "aarch64" else arm()
    hardware = tuple(sorted(table.hardware))
    probes = A64_PROBES if family == "aarch64" else ARM_PROBES
    clang, llc, opt = (found[n] or "" for n in ("clang-22", "llc-22", "opt-22"))
    return _Tools(clang, llc, opt, family, hardware, dict(exposed(family)), probes, dict(table.implies))


def sweep(family: str, workers: int = 2, limit: Iterable[str] | None = None) -> SweepResult:
    """Sweep ``family`` (``aarch64`` or ``arm``); ``limit`` restricts the rows (for quick tests)."""
    tools = _tools(family)
    if isinstance(tools, str):
        return SweepResult(family, skipped=tools)
    rows, variants, all_cases = cases(family, tools.clang)
    if limit is not None:
        keep = set(limit)
        rows = [r for r in rows if r.name in keep]
        all_cases = [c for c in all_cases if c.row in keep]
    result = SweepResult(family, cpus=len(rows), variants=len(variants), features=len(tools.hardware))
    by_row: dict[str, list[Case]] = {}
    for case in all_cases:
        by_row.setdefault(case.row, []).append(case)
    with ThreadPoolExecutor(max_workers=max(1, min(2, workers))) as pool:
        for checks, problems in pool.map(lambda b: check_cases(tools, b), by_row.values()):
            result.checks += checks
            result.disagreements += problems
    return result
