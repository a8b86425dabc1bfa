"""Generate ``tcfg_gpuapi/data/llvm_spirv.json``: what LLVM's SPIR-V backend (llc-22) does for Vulkan.

Two sweeps of the real tool:

* every ``spirv[VERSION]-unknown-vulkan[API]`` triple, for every SPIR-V version of
  ``spirv.json`` and every Vulkan API version (and none): whether llc accepts it, and the
  SPIR-V version of the module it writes for a small compute shader (read from the
  binary's header), from which ``arch_for_spirv`` says how to spell each version;
* every ``SPV_*`` extension name in the LLVM library, given to ``--spirv-ext=+NAME``: the
  ones llc accepts for a Vulkan triple.

Usage: ``python scripts/gen_llvm_spirv.py [--check]`` (``--check`` compares with the
committed file and exits 1 on a difference).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "tcfg_gpuapi" / "data"
OUT = DATA / "llvm_spirv.json"
LLC = "llc-22"

#: A compute shader LLVM's SPIR-V backend lowers for Vulkan (an entry point with a workgroup size).
SHADER = """\
@shared = internal addrspace(3) global [64 x float] poison, align 4
define void @main() #0 {
entry:
  %id = call i32 @llvm.spv.thread.id.i32(i32 0)
  %p = getelementptr inbounds [64 x float], ptr addrspace(3) @shared, i32 0, i32 %id
  %v = uitofp i32 %id to float
  store float %v, ptr addrspace(3) %p, align 4
  ret void
}
declare i32 @llvm.spv.thread.id.i32(i32)
attributes #0 = { "hlsl.shader"="compute" "hlsl.numthreads"="64,1,1" }
"""


def _emitted_version(triple: str, work: Path) -> str | None:
    """The SPIR-V version llc writes for ``triple`` (None: llc refuses the triple or the shader)."""
    out = work / "out.spv"
    out.unlink(missing_ok=True)
    done = subprocess.run(
        [LLC, f"-mtriple={triple}", "-filetype=obj", str(work / "shader.ll"), "-o", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0 or not out.exists():
        return None
    word = int.from_bytes(out.read_bytes()[4:8], "little")
    return f"{word >> 16}.{(word >> 8) & 0xFF}"


def _library_extension_names() -> list[str]:
    """The ``SPV_VENDOR_name`` strings in the LLVM 22 library (candidates for --spirv-ext)."""
    libdir = subprocess.run(["llvm-config-22", "--libdir"], capture_output=True, text=True, check=True).stdout.strip()
    text = (Path(libdir) / "libLLVM.so").resolve().read_bytes()
    return sorted({m.decode() for m in re.findall(rb"SPV_[A-Z]+_[a-z0-9][A-Za-z0-9_]*", text)})


def _accepted_extension(name: str, work: Path) -> bool:
    done = subprocess.run(
        [LLC, "-mtriple=spirv1.6-unknown-vulkan1.3", f"--spirv-ext=+{name}", str(work / "empty.ll"), "-o", "/dev/null"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.returncode == 0


def generate() -> dict[str, object]:
    if shutil.which(LLC) is None:
        sys.exit(f"{LLC} is not on PATH")
    spirv = json.loads((DATA / "spirv.json").read_text())
    versions: list[str] = spirv["spirv_versions"]
    apis = ["", *spirv["api_versions"]]
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "shader.ll").write_text(SHADER)
        (work / "empty.ll").write_text("")
        emits: dict[str, str | None] = {}
        for arch in ["spirv", *(f"spirv{v}" for v in versions)]:
            for api in apis:
                triple = f"{arch}-unknown-vulkan{api}"
                emits[triple] = _emitted_version(triple, work)
        arch_for: dict[str, str] = {}
        for arch in ["spirv", *(f"spirv{v}" for v in versions)]:
            seen = {emits[f"{arch}-unknown-vulkan{api}"] for api in apis}
            if len(seen) == 1 and None not in seen:
                (version,) = seen
                # The explicit spelling wins over the bare one when both give the version.
                if version is not None and (version not in arch_for or arch != "spirv"):
                    arch_for[version] = arch
        candidates = _library_extension_names()
        accepted = [name for name in candidates if _accepted_extension(name, work)]
    llc_version = subprocess.run([LLC, "--version"], capture_output=True, text=True, check=True).stdout
    release = re.search(r"LLVM version (\S+)", llc_version)
    return {
        "source": f"{LLC} (LLVM {release.group(1) if release else '?'}) run by scripts/gen_llvm_spirv.py",
        "date": date.today().isoformat(),
        "emitted_version": emits,
        "arch_for_spirv": dict(sorted(arch_for.items())),
        "extension_candidates": len(candidates),
        "extensions": accepted,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with the committed file instead of writing")
    args = parser.parse_args()
    table = generate()
    if args.check:
        committed = json.loads(OUT.read_text())
        keys = ("emitted_version", "arch_for_spirv", "extensions")
        diff = [k for k in keys if committed.get(k) != table[k]]
        if diff:
            sys.exit(f"{OUT.name} differs from {LLC} in {diff}: regenerate it")
        print(f"{OUT.name} agrees with {LLC}")
        return
    OUT.write_text(json.dumps(table, indent=1) + "\n")
    print(f"wrote {OUT} ({len(table['extensions'])} extensions, {len(table['arch_for_spirv'])} SPIR-V versions)")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
