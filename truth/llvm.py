"""The real tools the truth sweep asks: where they are, and what they say about a target.

Every function runs the tool it names and parses its output; nothing here knows a
fact of its own. A tool that is not installed is ``None`` from :func:`find`, and the
sweep's tests skip with the reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Sequence

__all__ = [
    "asm_probe",
    "clang_features",
    "clang_ir_attrs",
    "find",
    "llvm_feature_names",
    "parse_features",
    "run",
    "same_subtarget",
    "subtarget_features",
]

#: Where Debian's llvm-22 and NVIDIA's CUDA put tools that are not on PATH.
_EXTRA_DIRS = ("/usr/lib/llvm-22/bin", "/usr/local/cuda/bin")
_ATTR = re.compile(r'"target-(cpu|features)"="([^"]*)"')
_TRIPLE = re.compile(r'^target triple = "([^"]*)"', re.M)


def find(name: str) -> str | None:
    """The path of tool ``name`` (``clang-22``, ``llc-22``, ``ptxas``), or None.

    ``$TCFG_TRUTH_<NAME>`` (``-`` as ``_``, upper case) overrides the search.
    """
    override = os.environ.get("TCFG_TRUTH_" + name.replace("-", "_").upper())
    if override:
        return override
    found = shutil.which(name)
    if found:
        return found
    plain = name.split("-")[0]  # llc-22 -> llc inside /usr/lib/llvm-22/bin
    for directory in _EXTRA_DIRS:
        for candidate in (name, plain):
            path = os.path.join(directory, candidate)
            if os.access(path, os.X_OK) and (candidate == name or "llvm-22" in directory):
                return path
    return None


def run(argv: Sequence[str], stdin: str = "", timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` with ``stdin``; stdout and stderr as text, never raising on a non-zero exit."""
    return subprocess.run(list(argv), input=stdin, capture_output=True, text=True, timeout=timeout, check=False)


def parse_features(text: str) -> dict[str, bool]:
    """``"+a,-b"`` as ``{"a": True, "b": False}`` (the last mention of a feature wins, as in LLVM)."""
    out: dict[str, bool] = {}
    for item in filter(None, text.split(",")):
        out[item[1:]] = item[0] == "+"
    return out


def clang_features(clang: str, triple: str, args: Sequence[str]) -> tuple[str | None, dict[str, bool]]:
    """The ``target-cpu`` and ``target-features`` clang gives a function for ``triple`` and ``args``.

    Compiles an empty function to LLVM IR (``-S -emit-llvm``) and reads its attributes,
    which are what the backend receives. Raises ``RuntimeError`` with clang's message
    when clang refuses the arguments.
    """
    argv = [clang, f"--target={triple}", *args, "-S", "-emit-llvm", "-o", "-", "-x", "c", "-"]
    done = run(argv, "void f(void) {}\n")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip()}")
    found = dict(_ATTR.findall(done.stdout))
    return found.get("cpu"), parse_features(found.get("features", ""))


def clang_ir_attrs(clang: str, triple: str, args: Sequence[str]) -> tuple[str, str, tuple[str, ...]]:
    """(module triple, target-cpu, target-features items in order) clang gives an empty function.

    Like :func:`clang_features` but keeps the order of the items (LLVM applies them in
    order) and the triple clang settled on (``arm-none-eabihf`` becomes ``armv4t-...``).
    ``outline-atomics`` is left out: clang's driver adds it for AArch64 Linux when it finds
    the target's libgcc installed (a cross gcc), a runtime-library choice, not hardware.
    """
    argv = [clang, f"--target={triple}", *args, "-S", "-emit-llvm", "-o", "-", "-x", "c", "-"]
    done = run(argv, "void f(void) {}\n")
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {done.stderr.strip()}")
    found = dict(_ATTR.findall(done.stdout))
    module = _TRIPLE.search(done.stdout)
    items = tuple(i for i in found.get("features", "").split(",") if i and i[1:] != "outline-atomics")
    return (module.group(1) if module else triple), found.get("cpu", "generic"), items


def llvm_feature_names(llc: str, triple: str) -> list[str]:
    """Every feature name llc's ``-mattr=help`` lists for ``triple``."""
    done = run([llc, f"-mtriple={triple}", "-mattr=help"])
    text = done.stdout + done.stderr
    section = text.split("Available features for this target:", 1)[-1]
    return re.findall(r"^  ([A-Za-z0-9][\w.\-]*)\s", section, re.M)


def subtarget_features(
    opt: str, triple: str, configs: Sequence[tuple[str, str]], probe: Sequence[str]
) -> list[frozenset[str]]:
    """For each (CPU, feature string): which of ``probe`` LLVM's subtarget for it has.

    The backend's answer, not a parser's: LLVM's inliner inlines a callee only when the
    callee's subtarget features are a subset of the caller's (``areInlineCompatible``),
    so a caller with the configuration and, per probed feature ``F``, a callee with the
    same CPU and string plus ``+F`` is inlined exactly when the caller already has F.
    llc builds its subtarget from ``-mcpu``/``-mattr`` with the same code (the feature
    string is applied left to right by ``MCSubtargetInfo``). Do not probe
    ``execute-only`` (compared inverted) or features that make the module invalid.
    """
    per = max(1, 1200 // max(1, len(probe)))  # every callee is a subtarget object: bound opt's memory
    out: list[frozenset[str]] = []
    for at in range(0, len(configs), per):
        out += _subtarget_batch(opt, triple, configs[at : at + per], list(probe))
    return out


def _subtarget_batch(
    opt: str, triple: str, configs: Sequence[tuple[str, str]], probe: list[str]
) -> list[frozenset[str]]:
    lines: list[str] = []
    attr = 0
    for k, (cpu, fs) in enumerate(configs):
        lines.append(f"define void @c{k}() #{attr} {{")
        lines += [f"  call void @p{k}_{i}()" for i in range(len(probe))]
        lines.append("  ret void\n}")
        lines.append(f'attributes #{attr} = {{ "target-cpu"="{cpu}" "target-features"="{fs}" }}')
        attr += 1
        for i, feat in enumerate(probe):
            callee = f"{fs},+{feat}" if fs else f"+{feat}"
            lines.append(f"define internal void @p{k}_{i}() #{attr} {{\n  ret void\n}}")
            lines.append(f'attributes #{attr} = {{ "target-cpu"="{cpu}" "target-features"="{callee}" }}')
            attr += 1
    done = run([opt, f"-mtriple={triple}", "-passes=inline", "-S", "-o", "-", "-"], "\n".join(lines) + "\n")
    if done.returncode != 0 or "not a recognized feature" in done.stderr:
        if len(configs) > 1:
            return [got for c in configs for got in _subtarget_batch(opt, triple, [c], probe)]
        raise RuntimeError(f"{opt} -mtriple={triple} {configs[0]}: {done.stderr.strip()[:2000]}")
    kept: dict[int, set[int]] = {}
    for k, i in re.findall(r"call void @p(\d+)_(\d+)\(\)", done.stdout):
        kept.setdefault(int(k), set()).add(int(i))
    return [frozenset(f for i, f in enumerate(probe) if i not in kept.get(k, set())) for k in range(len(configs))]


def same_subtarget(opt: str, triple: str, pairs: Sequence[tuple[tuple[str, str], tuple[str, str]]]) -> list[bool]:
    """For each pair of (CPU, feature string): whether LLVM builds subtargets with the same features.

    The inliner's subset rule both ways (see :func:`subtarget_features`): X calls a callee
    built as Y, and Y calls one built as X; both inlined means equal feature bits (every
    bit, tuning included). One opt run for all pairs.
    """
    lines: list[str] = []
    attr = 0

    def fn(name: str, config: tuple[str, str], call: str | None) -> None:
        nonlocal attr
        body = f"  call void @{call}()\n" if call else ""
        linkage = "" if call else "internal "
        lines.append(f"define {linkage}void @{name}() #{attr} {{\n{body}  ret void\n}}")
        lines.append(f'attributes #{attr} = {{ "target-cpu"="{config[0]}" "target-features"="{config[1]}" }}')
        attr += 1

    for k, (x, y) in enumerate(pairs):
        fn(f"x{k}", x, f"y{k}_in")
        fn(f"y{k}_in", y, None)
        fn(f"y{k}", y, f"x{k}_in")
        fn(f"x{k}_in", x, None)
    done = run([opt, f"-mtriple={triple}", "-passes=inline", "-S", "-o", "-", "-"], "\n".join(lines) + "\n")
    if done.returncode != 0 or "not a recognized feature" in done.stderr:
        raise RuntimeError(f"{opt} -mtriple={triple}: {done.stderr.strip()[:2000]}")
    left = set(re.findall(r"call void @([xy]\d+)_in\(\)", done.stdout))
    return [f"x{k}" not in left and f"y{k}" not in left for k in range(len(pairs))]


def asm_probe(llc: str, flags: Sequence[str], probes: dict[str, str], with_asm: bool = True) -> tuple[set[str], str]:
    """Which probes llc (run with ``flags``) assembles: ``probes`` maps a name to one instruction.

    Each instruction goes in its own function as inline assembly, and llc assembles the
    module (``-filetype=obj``); an instruction the subtarget lacks is reported as an
    error naming its line, and llc goes on to the next. Returns (accepted names, the
    assembly llc prints for a 128-bit vector add, for ``.fpu`` and register use, or ""
    without ``with_asm``).
    """
    names = sorted(probes)
    body = [
        f'define void @probe{i}() {{\n  call void asm sideeffect "{probes[n]}", ""()\n  ret void\n}}'
        for i, n in enumerate(names)
    ]
    module = "\n".join(body) + "\n"
    done = run([llc, *flags, "-filetype=obj", "-o", "/dev/null"], module)
    rejected = set()
    for line in re.findall(r"^\s*(\S.*)$", done.stderr, re.M):
        for n in names:
            if line.strip() == probes[n].strip():
                rejected.add(n)
    if done.returncode != 0 and not rejected:
        raise RuntimeError(f"{llc} {' '.join(flags)}: {done.stderr.strip()[:2000]}")
    text = run([llc, *flags, "-o", "-"], _VECTOR_ADD).stdout if with_asm else ""
    return set(names) - rejected, text


#: A 128-bit vector add: with NEON, 32-bit Arm uses q registers for it.
_VECTOR_ADD = (
    "define <4 x i32> @vec(<4 x i32> %a, <4 x i32> %b) {\n  %r = add <4 x i32> %a, %b\n  ret <4 x i32> %r\n}\n"
)
